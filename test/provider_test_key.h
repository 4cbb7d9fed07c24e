/* test/provider_test_key.h - the RSA private key (PKCS#8 PEM) the
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

#endif
