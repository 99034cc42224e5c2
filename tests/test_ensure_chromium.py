"""scripts/ensure-chromium's decisions: use the browser that is there, else install as root or with `sudo -n`.

The script runs with a PATH holding only a temporary folder of stand-ins for the machine: `id` says who runs
it, `sudo` accepts or asks for a password, `apt-get` records its calls (and, when told to, leaves a `chromium`
and a `chromedriver` behind, as Debian's packages would).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "ensure-chromium"
BASH = shutil.which("bash") or "/bin/bash"

SUDO = """\
if [ "$1" = -n ] && [ "$SUDO_WORKS" = yes ]; then
    shift
    echo "sudo -n $*" >> "$CALLS"
    export RAN_WITH_SUDO=yes
    exec "$@"
fi
echo "sudo: a password is required" >&2
exit 1
"""
APT_GET = """\
echo "apt-get $* sudo=${RAN_WITH_SUDO:-no} frontend=${DEBIAN_FRONTEND:-unset}" >> "$CALLS"
if [ "$1" = install ] && [ "$APT_PROVIDES" = yes ]; then
    for name in chromium chromedriver; do
        printf '#!/bin/bash\\n' > "$BIN/$name"
        "$CHMOD" +x "$BIN/$name"
    done
fi
"""


def stand_in(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text("#!/bin/bash\n" + body)
    path.chmod(0o755)
    return path


@dataclass
class Machine:
    """A temporary bin folder standing for the machine the script runs on."""

    bin: Path
    calls: Path

    def browser(self, name: str) -> Path:
        return stand_in(self.bin, name, "exit 0\n")

    def run(self, *args: str, uid: int = 1001, sudo: bool = False, apt_provides: bool = True,
            **extra: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
        stand_in(self.bin, "id", f'[ "$1" = -u ] && echo {uid}\n')
        env = {
            "PATH": str(self.bin),
            "CALLS": str(self.calls),
            "BIN": str(self.bin),
            "SUDO_WORKS": "yes" if sudo else "no",
            "APT_PROVIDES": "yes" if apt_provides else "no",
            "CHMOD": shutil.which("chmod") or "/bin/chmod",  # for the apt-get stand-in, not on its PATH
            **extra,
        }
        return subprocess.run(
            [BASH, str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=30, check=False
        )

    def logged(self) -> list[str]:
        return self.calls.read_text().splitlines() if self.calls.exists() else []


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    folder = tmp_path / "bin"
    folder.mkdir()
    # Real tools the script and `sudo -n true` need besides bash: `env` passes DEBIAN_FRONTEND on.
    for tool in ("env", "true"):
        os.symlink(shutil.which(tool) or f"/usr/bin/{tool}", folder / tool)
    stand_in(folder, "sudo", SUDO)
    stand_in(folder, "apt-get", APT_GET)
    return Machine(folder, tmp_path / "calls.log")


def test_a_browser_and_driver_already_there_are_used_and_nothing_is_installed(machine: Machine) -> None:
    browser, driver = machine.browser("chromium"), machine.browser("chromedriver")
    result = machine.run(uid=0)
    assert result.returncode == 0, result.stderr
    assert f"using {browser} with {driver}" in result.stdout
    assert machine.logged() == []


def test_print_names_the_pair_the_browser_test_drives(machine: Machine) -> None:
    browser, driver = machine.browser("chromium"), machine.browser("chromedriver")
    result = machine.run("--print")
    assert (result.returncode, result.stdout.splitlines()) == (0, [str(browser), str(driver)])


def test_print_installs_nothing_and_fails_when_a_part_is_missing(machine: Machine) -> None:
    machine.browser("chromium")
    result = machine.run("--print", uid=0)
    assert (result.returncode, result.stdout, machine.logged()) == (1, "", [])


def test_a_github_runners_chrome_is_found_through_its_variables(machine: Machine, tmp_path: Path) -> None:
    # GitHub's Ubuntu images: CHROME_BIN names Google Chrome, CHROMEWEBDRIVER the folder of its ChromeDriver.
    chrome_folder, driver_folder = tmp_path / "chrome", tmp_path / "chromedriver-linux64"
    chrome_folder.mkdir()
    driver_folder.mkdir()
    chrome = stand_in(chrome_folder, "google-chrome", "exit 0\n")
    driver = stand_in(driver_folder, "chromedriver", "exit 0\n")
    result = machine.run("--print", CHROME_BIN=str(chrome), CHROMEWEBDRIVER=str(driver_folder))
    assert (result.returncode, result.stdout.splitlines()) == (0, [str(chrome), str(driver)])


def test_google_chrome_on_path_counts_as_a_browser(machine: Machine) -> None:
    chrome, driver = machine.browser("google-chrome"), machine.browser("chromedriver")
    result = machine.run("--print")
    assert result.stdout.splitlines() == [str(chrome), str(driver)]


def test_root_installs_debian_packages_with_apt_get_itself(machine: Machine) -> None:
    result = machine.run(uid=0)
    assert result.returncode == 0, result.stderr
    assert machine.logged() == [
        "apt-get update -qq sudo=no frontend=noninteractive",
        "apt-get install -y -qq chromium chromium-driver sudo=no frontend=noninteractive",
    ]


def test_a_user_whose_sudo_needs_no_password_installs_with_sudo_n(machine: Machine) -> None:
    result = machine.run(uid=1001, sudo=True)
    assert result.returncode == 0, result.stderr
    assert "with sudo -n" in result.stdout
    apt_calls = [line for line in machine.logged() if line.startswith("apt-get")]
    assert apt_calls == [
        "apt-get update -qq sudo=yes frontend=noninteractive",
        "apt-get install -y -qq chromium chromium-driver sudo=yes frontend=noninteractive",
    ]


def test_a_user_whose_sudo_asks_for_a_password_is_told_what_to_run(machine: Machine) -> None:
    result = machine.run(uid=1001, sudo=False)
    assert result.returncode == 1
    assert "sudo apt-get install chromium chromium-driver" in result.stderr
    assert "CHROME_BIN" in result.stderr
    assert machine.logged() == []


def test_a_user_without_sudo_at_all_is_told_what_to_run(machine: Machine) -> None:
    (machine.bin / "sudo").unlink()
    result = machine.run(uid=1001)
    assert result.returncode == 1
    assert "sudo apt-get install chromium chromium-driver" in result.stderr
    assert machine.logged() == []


def test_an_install_that_leaves_no_browser_behind_is_a_failure(machine: Machine) -> None:
    result = machine.run(uid=0, apt_provides=False)
    assert result.returncode == 1
    assert "still not on PATH" in result.stderr
    assert len(machine.logged()) == 2
