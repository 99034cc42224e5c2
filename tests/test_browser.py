"""The built site in headless Chromium: the error table, a row anchor, the phone layout, the search."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_site import SEED_ROWS, mkdocs_build

pytestmark = pytest.mark.browser


def browser_and_driver() -> tuple[str, str] | None:
    """The pair scripts/ensure-chromium settles on: Debian's chromium, a GitHub runner's Chrome, ..."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "ensure-chromium"
    found = subprocess.run(["bash", str(script), "--print"], capture_output=True, text=True, check=False)
    paths = found.stdout.split("\n")[:2]
    return (paths[0], paths[1]) if found.returncode == 0 and all(paths) else None


FOUND = browser_and_driver()
if FOUND is None:  # pragma: no cover - `make test` runs scripts/ensure-chromium first
    pytest.skip(
        "no Chromium or Chrome with a ChromeDriver is installed (run scripts/ensure-chromium)",
        allow_module_level=True,
    )
CHROMIUM, CHROMEDRIVER = FOUND

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ERROR_PAGE = "developers/mcp-errors/"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def site_url(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("browser-site")
    built = mkdocs_build(repo_root, site)
    assert built.returncode == 0, built.stderr
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "http.server",
        str(port),
        "--bind",
        "127.0.0.1",
        "--directory",
        str(site),
    ]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(url, timeout=1):
                    break
            except OSError:
                time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", f"--user-data-dir={profile}", "--window-size=1280,900"):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()


def test_error_table_has_every_row(browser: WebDriver, site_url: str) -> None:
    browser.get(site_url + ERROR_PAGE)
    table = WebDriverWait(browser, 10).until(
        ec.visibility_of_element_located((By.CSS_SELECTOR, ".docgen-error-table table"))
    )
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
    cells = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows]
    assert [(code, status) for code, status, *_ in cells] == SEED_ROWS
    assert all(row.is_displayed() for row in rows)


def test_a_row_anchor_targets_its_row(browser: WebDriver, site_url: str) -> None:
    browser.get(site_url + ERROR_PAGE + "#err-header-mismatch")
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    target = browser.execute_script("return document.querySelector(':target')?.id")
    assert target == "err-header-mismatch"
    row = browser.find_element(By.CSS_SELECTOR, "tr:has(a#err-header-mismatch)")
    assert row.find_elements(By.TAG_NAME, "td")[0].text == "-32020"
    WebDriverWait(browser, 5).until(
        lambda d: d.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight;",
            row,
        )
    )


def test_the_table_fits_a_phone_screen(browser: WebDriver, site_url: str) -> None:
    browser.set_window_size(390, 844)
    try:
        browser.get(site_url + ERROR_PAGE)
        table = browser.find_element(By.CSS_SELECTOR, ".docgen-error-table table")
        overflow = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;"
        )
        assert overflow <= 0
        assert table.size["width"] <= 390
        assert not browser.find_element(By.CSS_SELECTOR, ".docgen-error-table thead").is_displayed()
        status = table.find_element(By.CSS_SELECTOR, "tbody td:nth-child(2)")
        label = browser.execute_script("return getComputedStyle(arguments[0], '::before').content;", status)
        assert label == '"HTTP "'  # each row is a card, so the status carries its own label
    finally:
        browser.set_window_size(1280, 900)


def test_site_search_finds_the_page_by_the_header_mismatch_code(browser: WebDriver, site_url: str) -> None:
    browser.get(site_url)
    query = WebDriverWait(browser, 10).until(
        ec.element_to_be_clickable((By.CSS_SELECTOR, "input.md-search__input"))
    )
    query.click()
    query.send_keys("-32020")
    links = WebDriverWait(browser, 15).until(
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, ".md-search-result__list a.md-search-result__link") or False
        )
    )
    hrefs = [link.get_attribute("href") or "" for link in links]
    assert any(ERROR_PAGE in href for href in hrefs), hrefs
