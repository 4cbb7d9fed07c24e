/* test/provider_test_key.h - the RSA private keys (PKCS#8 PEM) the
 * provider's wipe tests sign with; made for them, used nowhere else. */
#ifndef CRISP_TEST_PROVIDER_TEST_KEY_H
#define CRISP_TEST_PROVIDER_TEST_KEY_H

/* A 1024-bit key for these tests only: crisp signs it on the CRT path (16
 * limbs, 8 per prime), cheap under valgrind and the emulators. */
static const char provider_test_key_pem[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBAMoARmbi2dk3Ersm\n"
    "zOoVdaK5Vn4aeg6fuEVJF/ZBMiVTZBwTuOFoDp7qnzadLf1l077SCF/ZYGJGx+U5\n"
    "eTUAWh537eYKwSoXo88TlQhvRiOrqYB0yMZcwLug0YF5X2SRbGLd+3ElsTLaUFCK\n"
    "hk62AR/u1N+YTZBBrcYVw17C4f5pAgMBAAECgYEAsE+BI3hJUPBi5vs8y+wjGv7N\n"
    "4Y9WjcEW41KjGYtaK34X2PHV4tgiOs7qXI7gf1YLdXh5Wr+vAthozUhW5M4D2Rp1\n"
    "glObmj34bWWTHgINKNqQb5HI9SASYjIY2ijso2BjpOg4WyIQ5JnSPFo/d+uuDpWX\n"
    "880gtisHkF8c7HtxUwECQQDx6zT3h4QclSP2PpxAyigmr9B9ZYk21ZJUNopa0zIa\n"
    "S/HwxdK+ReNRFcHd1yJdbwqECNiXs4nGrco+BAEqP90RAkEA1cJCwt/vkQz9Dv8H\n"
    "ixDEO2K0rGesokX7tgNyM6+K0D6gS2RzsG4i2cytZCzXPwZ8nufgNHydyO0eSDwN\n"
    "GcHr2QJACRWZBpaLKnubPxr4ySIOQe2mOZ8/eNSqSwlFRsXZgs1JR45WLJj5QUk8\n"
    "33S9sJ6D2ZNvdrriOJi8GHoUBR8i0QJASHN4d165b1uMpjmQj/UV3d79x/W30KSR\n"
    "xUZzvcsA7MZdRFB+2czqqRGzr2F3b1g+gwmqt3+JZ2HfQrJ/6jwNOQJAZkk2S0Yg\n"
    "U0H0UsQQLDt3ec/Z1jc+i3XYiK3f0f7aBruJVJ/AiEbFx0d6vOcuXCTeRD/b4RjI\n"
    "w6BwFW6zXYVrig==\n"
    "-----END PRIVATE KEY-----\n";

/* A 2048-bit key (16 limbs per prime) whose halves reach the kernels that
 * start at 16 limbs, the IFMA pair exponentiation among them. */
static const char provider_test_key_2048_pem[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC9yqUAyUZzWX96\n"
    "wPZ5sJ9g/wPDWo2DcNPIZriToD0FfNWoHkshUUjA89TKPif5aMDE2QWzGeYihXsf\n"
    "amKxD1BQGOaZBWDecDU3a+nb0yVp3QDNODvCCLPwM4lgCVfluIRjjgZocnP3fTGs\n"
    "HS8g20yroPVIFFGHtM2mde2yGmFPa7av7jpgQ7qWl+SxEBxDdvd6KHdjp89vL0ZQ\n"
    "FaihsOycD3mKAam3rE+M8aAs7mSuZvU47ZhgIWgBytq76u6cVjojogOjVZGPKbvt\n"
    "DlCjnb3qma+1ma0eFEeVwqVzwdRy+Z5cwzBXeP33sIIM2NnHaAvYEKYIwobCZ7Ql\n"
    "PgjI/1XLAgMBAAECggEADBYTEu0+aMsaxKj0KUS3qZgj17V1DJlLS1hLSc9rA2Xz\n"
    "Pz0KoMkJ3ovIkcaKiiYDHKYLaF/uWWVxtUrzlP36KdekG7uNcyznHqvnHSIhoE+8\n"
    "JNV/bLhcKSBHD9AYgl8RQzvAqbccLncRCjpjjW6Zv9ZEuH3ewUsgy4h4Bh8K8mE4\n"
    "Bs+8glWZVRRMWDZRrgB0dPYs5sCyPpDnokHJFQigrbe2Mx+RcoXpoJVvKyW+Pfv6\n"
    "HDJg/O2DbC+4ei+IFC9lD7LH9Z6uCifkz7+KyHXViihfZm4iVth/qppwZaLrvrVA\n"
    "F0LUnugxUN0L2IKKqdq9pqeZWIte3Ow+Z5G4E4SLZQKBgQDpZMqlZ6FHFAK6FwZe\n"
    "wDMwrlZgJJygNcURUD+1gYl0CKXZ8aEHvaYFER29hfx7sywd8wEIp/jDch+B7uAn\n"
    "exsVCRvJJiuoSi65V0muzr41Z0mZ1GhSXCv+n5Ckhp3BX/s32RnBNwyo4wKm9ENy\n"
    "5HcZXk3Vm6PQGFNEvJXhxGDa1QKBgQDQLLLSB7+ED5Az3QK5OuBBgsHf+979Vtk/\n"
    "8EKvBO/yIR0D/L4znxj1psrKqdVVK41GeIedt3QJwkvU1cBy7Z2UXhlu8LAcrpST\n"
    "RqY0tWYcpenj9iNaRJnUx1NXcODibJSKfTndblXuBvKS5WccVbaNPclQ7GqoSv9I\n"
    "n4Rxp1B+HwKBgEfH0/tjD9sIcH5DLpZdjmDefXo8SF+NqfpVMALmwBuLvVZ2VgxH\n"
    "a5QLW5Y6axiwVlUvs5Wx83RI2R/hE9eQqRejIYSP1MWBazVdfy/gLefGyIAjL6KE\n"
    "7pL1CEtRi5s5pc3bW2xtPduDVgF7BnODiI2oz09u+sa5dIKjbYVuHEuxAoGAVZLK\n"
    "P0QoGeU75dXoFLR7EvLpN2WWGJXm4D2na8Kfz+yEvOrcVOQFopVZr015AHXSsTFC\n"
    "rjaHYKuZ+HeVkKjUqfS0h8Iw4tlxAcl88RXQT95z8t1vUt/4TFtTixI/n1P7C6LG\n"
    "cpu0fxAkDvZ2GFOzowPPCZDllyCdKAFKtF2O3QkCgYEAy29lHXaePl/E0hsITr7D\n"
    "vw1krbaqBbm4F4l79CgFOcf+vZ/cKIBpK7AsWJeDzqwiEOJqVprW01j/Rn/MMB2z\n"
    "Pj4tXTrAD9PdVYHa3o5Jf7zEg97QSsxhpg7cUgDVbnAomBSun25vL69sNcYKtRdr\n"
    "/nzKAg6I9I4pQsLCDJ0lc5c=\n"
    "-----END PRIVATE KEY-----\n";

#endif
