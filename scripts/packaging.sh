# scripts/packaging.sh - the packaging stages of scripts/test.sh (sourced by
# it, not run alone): the ABI guard, the man pages, a build with every
# instruction-set opt-out, and a consumer project built against crisp the
# ways other projects use it. Each stage_NAME uses test.sh's helpers
# (configure, run_meson_test, native_dir, build_prefix) and works in
# temporary folders it removes again.
#
#   abi        scripts/abi.sh: exported symbols and public sizes against the
#              committed baseline (bash scripts/abi.sh --update after an
#              intended change)
#   man        docs/crisp.1 and docs/crisp.3 render without a groff warning
#              and name every subcommand, option and exported function;
#              crisp.3's size and alignment of each context type are the
#              compiler's
#   opt-out    -Davx512=false -Davx512ifma=false -Dasm=false: the suite passes
#              and nothing left out is in the library
#   consumer   test/consumer as a meson subproject (through a wrap), with
#              meson and crisp.pc, with CMake, with plain cc: shared and static
#   relocated  the installed tree copied to another prefix and the original
#              removed: pkg-config and CMake still build the consumer, and
#              the commands start without LD_LIBRARY_PATH

packaging_stages=(abi man opt-out consumer relocated)

# Prints the description of a packaging stage; fails for any other name.
describe_packaging_stage() {
  case "$1" in
    abi) echo "exported symbols and public sizes against scripts/abi/baseline.txt" ;;
    man) echo "crisp(1) and crisp(3) render without warnings and cover every command and function" ;;
    opt-out) echo "built with -Davx512=false -Davx512ifma=false -Dasm=false: the suite, nothing left in" ;;
    consumer) echo "test/consumer via meson subproject, meson + crisp.pc, CMake, cc: shared and static" ;;
    relocated) echo "the install copied to another prefix: pkg-config and CMake still build the consumer" ;;
    *) return 1 ;;
  esac
}

stage_abi() {
  bash "$root/scripts/abi.sh" "$native_dir"
}

# ---------------------------------------------------------------------------
# man

# Renders a page as man does for a reader, with groff's warnings on; any
# line on stderr fails (man and groff exit 0 on warnings).
render_man_page() {
  local page=$1 warnings
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null;
    groff -man -Tutf8 -ww -z "$page" 2>&1)
  if [ -n "$warnings" ]; then
    printf '%s\n' "$warnings" | sed 's/^/    /' >&2
    echo "${page#$root/} renders with warnings" >&2
    return 1
  fi
  # Plain text, one long line per paragraph, for the coverage checks.
  LC_ALL=C.UTF-8 MANWIDTH=1000 man -l "$page" 2>/dev/null | sed 's/.\x08//g'
}

# Fails naming every word of the list that the rendered page lacks.
expect_in_page() {
  local page_name=$1 text=$2 what=$3 missing=()
  shift 3
  for word in "$@"; do
    grep -qF -- "$word" <<<"$text" || missing+=("$word")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "$page_name does not mention these $what: ${missing[*]}" >&2
    return 1
  fi
  echo "    $page_name: all $# $what"
}

# crisp.3 states each context type's size and alignment ("CRISP_MD5_CTX_SIZE
# (128) bytes, 8-byte aligned" or "..., needs 8-byte alignment"): every
# crisp_*_ctx of the headers has one such claim, and sizeof and _Alignof
# from the headers agree with it.
expect_context_layouts() {
  local text=$1 claims types facts dir
  claims=$(grep -oE 'CRISP_[A-Z0-9_]+_CTX_SIZE \([0-9]+\) bytes, (needs )?[0-9]+-byte align' <<<"$text" |
    sed -E 's/^CRISP_([A-Z0-9_]+)_CTX_SIZE \(([0-9]+)\) bytes, (needs )?([0-9]+)-byte align$/\1 \2 \4/' |
    tr 'A-Z' 'a-z' | sed 's/^/crisp_/; s/ /_ctx /' | sort)
  types=$(grep -ohE '^\} crisp_[a-z0-9_]+_ctx;' "$root"/include/crisp/*.h | sed 's/^} //; s/;$//' | sort)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/crisp-layout.XXXXXX")
  {
    echo '#include <stdio.h>'
    echo '#include <crisp/crisp.h>'
    echo 'int main(void) {'
    for type in $types; do echo "  printf(\"$type %zu %zu\\n\", sizeof($type), _Alignof($type));"; done
    echo '}'
  } >"$dir/layout.c"
  cc -std=c11 -I"$root/include" -I"$native_dir/include" -o "$dir/layout" "$dir/layout.c" && facts=$("$dir/layout" | sort)
  rm -rf "$dir"
  if [ -z "$facts" ] || [ "$claims" != "$facts" ]; then
    echo "crisp.3's context sizes and alignments (type, size, alignment):" >&2
    diff <(echo "$facts") <(echo "$claims") | sed -n 's/^> /    crisp.3 says: /p; s/^< /    compiler says: /p' >&2
    return 1
  fi
  echo "    crisp.3: size and alignment of $(wc -l <<<"$facts") context types as compiled"
}

# Every one-line description of crisp (crisp --help, crisp.pc, the NAME
# lines of crisp(1) and crisp(3)) names each thing the headers offer: md5.h,
# poly1305.h, chacha20.h, chacha20poly1305.h (both AEADs), bn.h.
expect_descriptions() {
  local text1=$1 text3=$2 missing=0 name text
  local primitives=(MD5 Poly1305 ChaCha20 ChaCha20-Poly1305 XChaCha20-Poly1305 'big.integers?')
  for name in "crisp --help" crisp.pc crisp.1 crisp.3; do
    case $name in
      "crisp --help") text=$("$native_dir/tools/crisp" --help | sed -n '2,/^$/p' | tr '\n' ' ') ;;
      crisp.pc) text=$(sed -n 's/^Description: //p' "$root/packaging/crisp.pc.in") ;;
      crisp.1) text=$(sed -n '/^NAME/,/^[A-Z]/p' <<<"$text1" | tr '\n' ' ') ;;
      crisp.3) text=$(sed -n '/^NAME/,/^[A-Z]/p' <<<"$text3" | tr '\n' ' ') ;;
    esac
    for word in "${primitives[@]}"; do
      grep -qE -- "(^|[^A-Za-z0-9-])$word([^A-Za-z0-9-]|\$)" <<<"$text" && continue
      echo "the description in $name lacks '$word': $text" >&2
      missing=1
    done
  done
  [ "$missing" = 0 ] && echo "    crisp --help, crisp.pc, crisp.1, crisp.3: every primitive described"
}

stage_man() {
  local crisp=$native_dir/tools/crisp bench=$native_dir/bench/crisp-bench
  local text1 text3
  text1=$(render_man_page "$root/docs/crisp.1")
  text3=$(render_man_page "$root/docs/crisp.3")
  echo "    both pages render without warnings"

  # crisp(1): the subcommands `crisp --help` lists, every long option their
  # --help (and crisp-bench's) names, the environment, the exit statuses.
  local commands options
  commands=$("$crisp" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } /^$/ { on = 0 }')
  options=$( (for command in $commands; do "$crisp" "$command" --help; done; "$bench" --help) |
    grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
  expect_in_page crisp.1 "$text1" subcommands $commands
  expect_in_page crisp.1 "$text1" options $options --version --help
  expect_in_page crisp.1 "$text1" "environment variables and switches" CRYPTO_FORCE CRYPTO_OPTIONS \
    $(grep -oE '"Use[A-Za-z0-9]+"' "$root/src/kernel_list.h" | tr -d '"' | sort -u)
  expect_in_page crisp.1 "$text1" sections "EXIT STATUS" ENVIRONMENT

  # crisp(3): every exported function (the ABI baseline's list) and the
  # build options that change what the library contains.
  expect_in_page crisp.3 "$text3" "exported functions" \
    $(sed -n 's/^symbol \([a-z0-9_]*\)@.*/\1/p' "$root/scripts/abi/baseline.txt")
  expect_in_page crisp.3 "$text3" "build options" -Davx512=false -Davx512ifma=false -Dasm=false
  # and every public header, by the name a program includes.
  expect_in_page crisp.3 "$text3" headers $(cd "$root/include" && echo crisp/*.h) crisp/version.h
  expect_context_layouts "$text3"
  expect_descriptions "$text1" "$text3"

  # Installed where man finds them.
  local dest
  dest=$(mktemp -d "${TMPDIR:-/tmp}/crisp-man.XXXXXX")
  meson install -C "$native_dir" --no-rebuild --destdir "$dest" >/dev/null
  for section in 1 3; do
    [ -n "$(find "$dest" -path "*/man/man$section/crisp.$section*")" ] || {
      echo "crisp.$section is not installed" >&2
      rm -rf "$dest"
      return 1
    }
  done
  rm -rf "$dest"
  echo "    installed: man1/crisp.1, man3/crisp.3"
}

# ---------------------------------------------------------------------------
# opt-out

# How many instructions of a binary use an AVX-512 (zmm) register. grep reads
# to the end: a grep -q quitting early would fail objdump with SIGPIPE, and
# under pipefail a match would then read as no match.
count_zmm() {
  objdump -d --no-show-raw-insn "$1" | grep -c '%zmm' || true
}

stage_opt-out() {
  local dir=$build_prefix-optout
  build_dir "$dir" -- -Davx512=false -Davx512ifma=false -Dasm=false
  # What the build offers, "kernel/implementation" per line: no AVX-512
  # implementation, and no x86-64 MD5 (the assembly ones).
  local offered
  offered=$("$dir/tools/crisp" info --all | awk '/^[a-z0-9_]+: / { kernel = $1; sub(":", "", kernel) }
    /^  [a-z]/ { print kernel "/" $1 }')
  echo "    built in: $(echo $offered)"
  if grep -Eq '/avx512|^md5/x86_64' <<<"$offered"; then
    echo "implementations the options leave out are still built in: $(grep -E '/avx512|^md5/x86_64' <<<"$offered" | tr '\n' ' ')" >&2
    return 1
  fi
  # Nor in the code: no zmm register (AVX-512) and no assembly symbol.
  if [ "$(count_zmm "$dir/libcrisp.so")" -gt 0 ]; then
    echo "libcrisp.so still contains AVX-512 instructions" >&2
    return 1
  fi
  # meson names an object after its source: NAME.S.o for an assembly file.
  local assembled
  assembled=$(ar t "$dir/libcrisp.a" | grep -E '\.[sS]\.o$' || true)
  if [ -n "$assembled" ]; then
    echo "libcrisp.a still contains assembled objects: $(echo $assembled)" >&2
    return 1
  fi
  echo "    no %zmm instruction, no object assembled from a .S file"
  CRISP_TEST_SCALE=${CRISP_TEST_SCALE:-0.25} run_meson_test "$dir"
}

# ---------------------------------------------------------------------------
# consumer, relocated

# The prefix meson installs under (inside the DESTDIR tree).
installed_prefix() {
  meson introspect "$native_dir" --buildoptions | python3 -c '
import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))'
}

project_version() {
  meson introspect "$native_dir" --projectinfo | python3 -c '
import json, sys
print(json.load(sys.stdin)["version"])'
}

# What every consumer must print: the reference program's lines (OpenSSL,
# libsodium, GMP), then the version line. Sets `expected`.
build_reference() {
  local work=$1
  cc -std=c11 -Wall -Wextra -Werror -I"$root/test/consumer" -o "$work/reference" \
    "$root/test/consumer/reference.c" $(pkg-config --cflags --libs libcrypto libsodium) -lgmp
  expected="$("$work/reference")
version $(project_version)"
}

# Runs one consumer build and compares its output. kind is shared (it must
# load libcrisp.so.0 from libdir) or static (it must not need libcrisp).
check_consumer() {
  local label=$1 binary=$2 kind=$3 libdir=$4 needed loaded output
  needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  if [ "$kind" = shared ]; then
    grep -qx libcrisp.so.0 <<<"$needed" || {
      echo "$label: does not link libcrisp.so.0 (needs: $(echo $needed))" >&2
      return 1
    }
    loaded=$(LD_LIBRARY_PATH=$libdir ldd "$binary" | sed -n 's/.*libcrisp\.so\.0 => \(.*\) (0x.*/\1/p')
    if [ -z "$loaded" ] || [ "$(realpath "$(dirname "$loaded")")" != "$(realpath "$libdir")" ]; then
      echo "$label: loads libcrisp.so.0 from '$loaded', not from $libdir" >&2
      return 1
    fi
  elif grep -q '^libcrisp' <<<"$needed"; then
    echo "$label: linked statically, yet needs $(grep '^libcrisp' <<<"$needed")" >&2
    return 1
  fi
  output=$(LD_LIBRARY_PATH=$libdir "$binary") || {
    echo "$label: exit status $?" >&2
    return 1
  }
  if [ "$output" != "$expected" ]; then
    echo "$label: output differs from OpenSSL / libsodium / GMP:" >&2
    diff <(echo "$expected") <(echo "$output") | cut -c1-100 >&2
    return 1
  fi
  printf '    %-36s %-7s ok\n' "$label" "$kind"
}

# Installs the native build under a temporary DESTDIR; sets `installed`
# (the prefix inside it) and `installed_libdir`.
install_crisp() {
  local dest=$1
  meson install -C "$native_dir" --no-rebuild --destdir "$dest" >"$dest.log" || {
    cat "$dest.log"
    return 1
  }
  installed=$dest$(installed_prefix)
  installed_libdir=$(dirname "$(dirname "$(find "$installed" -name crisp.pc)")")
}

# The consumer from an install tree at prefix with libdir: plain cc and
# pkg-config, meson and pkg-config (when use_meson is 1), CMake.
build_consumers_from() {
  local prefix=$1 libdir=$2 work=$3 use_meson=$4 where=$5
  local consumer=$root/test/consumer
  export PKG_CONFIG_PATH=$libdir/pkgconfig
  cc -std=c11 -Wall -Wextra -Werror -I"$consumer" -o "$work/cc-shared" "$consumer/consumer.c" \
    $(pkg-config --cflags --libs crisp)
  check_consumer "cc \$(pkg-config crisp) $where" "$work/cc-shared" shared "$libdir"
  cc -static -std=c11 -Wall -Wextra -Werror -I"$consumer" -o "$work/cc-static" "$consumer/consumer.c" \
    $(pkg-config --static --cflags --libs crisp)
  check_consumer "cc -static \$(pkg-config crisp) $where" "$work/cc-static" static "$libdir"

  if [ "$use_meson" = 1 ]; then
    meson setup "$work/meson" "$consumer" >"$work/meson.log" 2>&1 &&
      meson compile -C "$work/meson" >>"$work/meson.log" 2>&1 || {
      tail -30 "$work/meson.log"
      return 1
    }
    check_consumer "meson, crisp.pc $where" "$work/meson/consumer" shared "$libdir"
    check_consumer "meson, crisp.pc $where" "$work/meson/consumer-static" static "$libdir"
  fi
  unset PKG_CONFIG_PATH

  local linkage
  for linkage in shared static; do
    local static_flag=OFF
    [ "$linkage" = static ] && static_flag=ON
    cmake -S "$consumer" -B "$work/cmake-$linkage" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCRISP_USE_STATIC_LIBS=$static_flag >"$work/cmake.log" 2>&1 &&
      cmake --build "$work/cmake-$linkage" >>"$work/cmake.log" 2>&1 || {
      tail -30 "$work/cmake.log"
      return 1
    }
    check_consumer "cmake find_package $where" "$work/cmake-$linkage/consumer" "$linkage" "$libdir"
  done
}

# test/consumer with crisp in subprojects/ through a wrap file, as
# docs/usage.md shows it: the source tarball sits in subprojects/packagecache, so
# meson never downloads. -Dcrisp:avx512=false shows crisp's options reach
# it; the checks then find no AVX-512 code and no crisp tool or test.
build_subproject_consumer() {
  local work=$1 project=$1/subproject
  mkdir -p "$project/subprojects/packagecache"
  cp "$root/test/consumer/"* "$project/"
  local version tarball
  version=$(project_version)
  tarball=$project/subprojects/packagecache/crisp-$version.tar.gz
  # The working tree as it is (tracked and new files), without build output;
  # outside a git checkout, every file but the build folders.
  (
    cd "$root"
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
      git ls-files -z --cached --others --exclude-standard
    else
      find . \( -name '.git' -o -name 'build*' \) -prune -o -type f -print0
    fi | tar --null -T - --transform "s|^\(\./\)\{0,1\}|crisp-$version/|" -czf "$tarball"
  )
  cat >"$project/subprojects/crisp.wrap" <<EOF
[wrap-file]
directory = crisp-$version
source_url = https://example.invalid/crisp-$version.tar.gz
source_filename = crisp-$version.tar.gz
source_hash = $(sha256sum "$tarball" | cut -d' ' -f1)

[provide]
dependency_names = crisp
EOF
  meson setup "$project/build" "$project" --force-fallback-for=crisp -Dcrisp:avx512=false \
    >"$work/subproject.log" 2>&1 && meson compile -C "$project/build" >>"$work/subproject.log" 2>&1 || {
    tail -30 "$work/subproject.log"
    return 1
  }
  local built
  built=$(meson introspect "$project/build" --targets | python3 -c '
import json, sys
print(" ".join(t["name"] for t in json.load(sys.stdin)
               if t["subproject"] == "crisp" and t["type"] != "static library" and t["type"] != "shared library"))')
  if [ -n "$built" ] || [ "$(meson introspect "$project/build" --tests)" != "[]" ]; then
    echo "the subproject build compiles crisp's tools or tests: $built" >&2
    return 1
  fi
  if [ "$(count_zmm "$project/build/consumer-static")" -gt 0 ]; then
    echo "-Dcrisp:avx512=false did not reach the subproject: AVX-512 code linked in" >&2
    return 1
  fi
  local libdir
  libdir=$(dirname "$(find "$project/build/subprojects" -name 'libcrisp.so.0' | head -1)")
  check_consumer "meson subproject (wrap)" "$project/build/consumer" shared "$libdir"
  check_consumer "meson subproject (wrap)" "$project/build/consumer-static" static "$libdir"
  echo "    subproject: no crisp tool or test built, -Dcrisp:avx512=false applied"
}

expect_same() {
  [ "$2" = "$3" ] || {
    echo "$1 printed '$3', expected '$2'" >&2
    return 1
  }
}

stage_consumer() {
  # Global, not local: the EXIT trap runs after this function has returned.
  consumer_work=$(mktemp -d "${TMPDIR:-/tmp}/crisp-consumer.XXXXXX")
  trap 'rm -rf "$consumer_work" "$consumer_work.log"' EXIT
  local work=$consumer_work
  build_reference "$work"
  install_crisp "$work/dest"
  mkdir -p "$work/installed"
  build_consumers_from "$installed" "$installed_libdir" "$work/installed" 1 ""

  # The version: one number, the same in the header, the library, the
  # commands and every package file.
  local version
  version=$(project_version)
  expect_same "crisp --version" "crisp $version" \
    "$(LD_LIBRARY_PATH=$installed_libdir "$installed/bin/crisp" --version)"
  expect_same "crisp-bench --version" "crisp-bench $version" \
    "$(LD_LIBRARY_PATH=$installed_libdir "$installed/bin/crisp-bench" --version)"
  expect_same "pkg-config --modversion crisp" "$version" \
    "$(PKG_CONFIG_PATH=$installed_libdir/pkgconfig pkg-config --modversion crisp)"
  echo "    crisp --version, crisp-bench --version, pkg-config --modversion: $version"
  # The CMake version file refuses a newer minor version.
  mkdir -p "$work/too-new"
  printf 'cmake_minimum_required(VERSION 3.16)\nproject(too_new C)\nfind_package(crisp %s CONFIG REQUIRED)\n' \
    "${version%%.*}.$(($(cut -d. -f2 <<<"$version") + 1))" >"$work/too-new/CMakeLists.txt"
  if cmake -S "$work/too-new" -B "$work/too-new/build" -DCMAKE_PREFIX_PATH="$installed" >/dev/null 2>&1; then
    echo "find_package(crisp) accepted a newer minor version than $version" >&2
    return 1
  fi
  echo "    find_package(crisp) refuses a newer minor version"

  build_subproject_consumer "$work"
}

stage_relocated() {
  relocated_work=$(mktemp -d "${TMPDIR:-/tmp}/crisp-relocated.XXXXXX")
  trap 'rm -rf "$relocated_work" "$relocated_work.log"' EXIT
  local work=$relocated_work
  build_reference "$work"
  install_crisp "$work/dest"
  # Copy the installed prefix elsewhere and remove the original, so nothing
  # can still reach it.
  local moved=$work/elsewhere/opt/crisp
  mkdir -p "$(dirname "$moved")"
  cp -a "$installed" "$moved"
  local libdir=$moved${installed_libdir#$installed}
  rm -rf "$work/dest"
  echo "    installed tree moved to ${moved#$work/}"

  # pkg-config resolves into the new place, with and without --define-prefix
  # (which guesses the prefix from a multiarch libdir wrongly, see crisp.pc).
  local pc_dir=$libdir/pkgconfig include_dir plain defined
  include_dir=$(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags-only-I crisp | sed 's/^-I//; s/ *$//')
  [ "$(realpath "$include_dir")" = "$(realpath "$moved/include")" ] || {
    echo "pkg-config --cflags points at $include_dir, not $moved/include" >&2
    return 1
  }
  plain=$(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags --libs crisp)
  defined=$(PKG_CONFIG_PATH=$pc_dir pkg-config --define-prefix --cflags --libs crisp)
  [ "$plain" = "$defined" ] || {
    echo "pkg-config --define-prefix gives '$defined', not '$plain'" >&2
    return 1
  }
  echo "    pkg-config (also --define-prefix): $plain"
  # The moved commands start without LD_LIBRARY_PATH, on the moved library
  # (their RUNPATH is relative to their own folder).
  local program loaded
  for program in crisp crisp-bench; do
    loaded=$(env -u LD_LIBRARY_PATH ldd "$moved/bin/$program" | sed -n 's|.*libcrisp\.so\.0 => \(/[^ ]*\) .*|\1|p')
    [ -n "$loaded" ] && [ "$(realpath "$loaded")" = "$(realpath "$libdir/libcrisp.so.0")" ] &&
      env -u LD_LIBRARY_PATH "$moved/bin/$program" --version >/dev/null || {
      echo "the moved $program does not start on the moved libcrisp.so.0 (loads '${loaded:-nothing}')" >&2
      return 1
    }
  done
  echo "    bin/crisp and bin/crisp-bench start on the moved library without LD_LIBRARY_PATH"
  build_consumers_from "$moved" "$libdir" "$work" 0 "(moved)"
}
