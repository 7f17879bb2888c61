# Sourced by ./build and ./test: make sure .venv exists and matches requirements.txt.
# Installs only when requirements.txt changed since the last install (its
# sha256 is kept in .venv/.requirements.sha256).
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
