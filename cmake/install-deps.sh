#!/bin/sh
# Install the Debian 12 packages patchfriction needs to build, test and write its report.
# Run as root on a fresh machine. Idempotent.
set -eu
export DEBIAN_FRONTEND=noninteractive
PKGS="build-essential cmake pkg-config clang libclang-rt-14-dev
      libode-dev check libsubunit-dev libgsl-dev libcubature-dev libjansson-dev
      libglfw3-dev libgl-dev libgl1-mesa-dri libpng-dev gnuplot-nox xvfb xauth
      dpkg-dev patch xz-utils make g++ autoconf automake libtool libccd-dev
      doxygen libopenmpi-dev openmpi-bin openssh-client
      libmujoco-dev libbullet-dev"
# The fourth line is for the patched-ODE build (PF_WITH_PATCHED_ODE, preset patched): dpkg-source
# unpacks Debian's ode source package, patch applies patches/, and ODE's autotools build (as
# debian/rules: autoreconf, configure --with-libccd=system) needs the rest. doxygen builds the API
# reference (target docs, docs/CMakeLists.txt). libopenmpi-dev, openmpi-bin: pf-sweep's MPI build
# and mpirun for its tests; OpenMPI's launcher wants an rsh agent on the PATH even on
# one machine, hence openssh-client. libmujoco-dev, libbullet-dev: the peer engines of the report's
# "Against other engines" section (tools/peers/).
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "install-deps: installing:$missing"
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing
else
  echo "install-deps: all packages present"
fi
