"""The built site in headless Chromium: error table, anchors, folded examples, phone layout, search."""

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
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException  # noqa: E402
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


PHONE = (390, 844)
WIDE = (1280, 900)

OVERFLOW = """
const screen = document.documentElement.clientWidth;
return [...document.querySelectorAll(arguments[0])].map(box => {
  const rect = box.getBoundingClientRect(), inner = box.querySelector('code') || box;
  return {left: rect.left, right: rect.right, screen, hidden: inner.scrollWidth - inner.clientWidth};
});
"""


@pytest.fixture
def phone(browser: WebDriver) -> Iterator[WebDriver]:
    browser.set_window_size(*PHONE)
    try:
        yield browser
    finally:
        browser.set_window_size(*WIDE)


def open_every_example(browser: WebDriver) -> int:
    """Click each folded example open, as a reader would; returns how many there were."""
    folds = browser.find_elements(By.CSS_SELECTOR, "details.example")
    for fold in folds:
        summary = fold.find_element(By.TAG_NAME, "summary")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", summary)
        summary.click()
        WebDriverWait(browser, 5).until(lambda _d, fold=fold: fold.get_attribute("open") is not None)
    return len(folds)


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


def test_the_table_fits_a_phone_screen(phone: WebDriver, site_url: str) -> None:
    phone.get(site_url + ERROR_PAGE)
    table = phone.find_element(By.CSS_SELECTOR, ".docgen-error-table table")
    overflow = phone.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;"
    )
    assert overflow <= 0
    assert table.size["width"] <= PHONE[0]
    assert not phone.find_element(By.CSS_SELECTOR, ".docgen-error-table thead").is_displayed()
    status = table.find_element(By.CSS_SELECTOR, "tbody td:nth-child(2)")
    label = phone.execute_script("return getComputedStyle(arguments[0], '::before').content;", status)
    assert label == '"HTTP "'  # each row is a card, so the status carries its own label


def test_recorded_answers_and_spec_tables_fit_a_phone_screen(phone: WebDriver, site_url: str) -> None:
    phone.get(site_url + ERROR_PAGE)
    assert open_every_example(phone) == 10  # internal-error has no request to fold
    answers = phone.execute_script(OVERFLOW, ".docgen-response pre")
    tables = phone.execute_script(OVERFLOW, ".docgen-spec-table table")
    # Ten server answers, and per example the output of Python in two modes and of TypeScript in two.
    assert (len(answers), len(tables)) == (10 + 10 * 4, 3)  # 2026-07-28: differs, agrees; 2025-11-25
    for box in answers + tables:
        assert box["left"] >= 0 and box["right"] <= box["screen"], box  # inside the screen
        assert box["hidden"] <= 0, box  # nothing cut off inside the box either: long lines wrap
    page = phone.execute_script("return document.documentElement.scrollWidth - innerWidth;")
    assert page <= 0


def test_spec_tables_are_cards_on_a_phone_labelled_with_their_headings(
    phone: WebDriver, site_url: str
) -> None:
    phone.get(site_url + ERROR_PAGE)
    for table in phone.find_elements(By.CSS_SELECTOR, ".docgen-spec-table table"):
        assert not table.find_element(By.TAG_NAME, "thead").is_displayed()
        headings = [th.get_attribute("textContent") for th in table.find_elements(By.TAG_NAME, "th")]
        cells = table.find_elements(By.CSS_SELECTOR, "tbody tr:first-child td")
        labels = [
            phone.execute_script("return getComputedStyle(arguments[0], '::before').content;", cell)
            for cell in cells[1:]
        ]
        assert labels == [f'"{heading}: "' for heading in headings[1:]]
        widths = {cell.size["width"] for cell in cells}
        assert len(widths) == 1 and widths.pop() > 300  # one cell under the other, each the card's width


def test_why_an_unknown_tool_is_a_200_comes_before_the_examples(phone: WebDriver, site_url: str) -> None:
    phone.get(site_url + ERROR_PAGE)
    marks = [".docgen-error-table", "#why-an-unknown-tool-is-an-http-200", "#examples", "#ex-parse-error"]
    tops = phone.execute_script(
        "return arguments[0].map(s => document.querySelector(s).getBoundingClientRect())"
        ".map(r => [r.top + scrollY, r.bottom + scrollY]);",
        marks,
    )
    (_, table_bottom), (why, _), (examples, _), (first_example, _) = tops
    assert table_bottom < why < examples < first_example
    assert why - table_bottom < PHONE[1]  # less than a screen after the table
    folded = phone.find_elements(By.CSS_SELECTOR, "details.example:not([open])")
    assert len(folded) == 10


def test_an_example_anchor_lands_on_its_heading_and_the_fold_opens_to_tabs(
    browser: WebDriver, site_url: str
) -> None:
    browser.get(site_url + ERROR_PAGE + "#ex-header-mismatch")
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    heading = browser.find_element(By.ID, "ex-header-mismatch")
    assert browser.execute_script("return document.querySelector(':target')?.id") == "ex-header-mismatch"
    WebDriverWait(browser, 5).until(
        lambda d: d.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return r.top >= 0;", heading
        )
    )
    fold = heading.find_element(By.XPATH, "following-sibling::details[1]")
    assert fold.get_attribute("open") is None
    fold.find_element(By.TAG_NAME, "summary").click()
    labels = fold.find_elements(By.CSS_SELECTOR, ".tabbed-labels > label")
    assert [label.text for label in labels] == [
        "HTTP",
        "curl",
        "Python (mcp 2.3.0)",
        "TypeScript (@modelcontextprotocol/client 2.4.0)",
    ]
    curl_tab = labels[1]
    WebDriverWait(browser, 5).until(ec.element_to_be_clickable(curl_tab)).click()
    shown = [
        block.text for block in fold.find_elements(By.CSS_SELECTOR, ".tabbed-block") if block.is_displayed()
    ]
    assert len(shown) == 1 and shown[0].startswith("curl -i") and "Mcp-Name: get_public_page" in shown[0]
    answer = fold.find_element(By.CSS_SELECTOR, ".docgen-response:not(.docgen-client)")
    assert answer.is_displayed() and '"code": -32020' in answer.text


def test_the_code_column_is_as_large_and_dark_as_the_cause(browser: WebDriver, site_url: str) -> None:
    browser.get(site_url + ERROR_PAGE)
    style = browser.execute_script(
        "const row = document.querySelector('.docgen-error-table tbody tr');"
        "const [code, cause] = [row.querySelector('td code'), row.cells[2]].map(e => getComputedStyle(e));"
        "return [parseFloat(code.fontSize), parseFloat(cause.fontSize), code.color, cause.color,"
        " Number(code.fontWeight)];"
    )
    code_size, cause_size, code_color, cause_color, weight = style
    assert code_size >= cause_size and code_color == cause_color and weight >= 600


def test_site_search_finds_the_page_by_the_header_mismatch_code(browser: WebDriver, site_url: str) -> None:
    browser.get(site_url)
    query = WebDriverWait(browser, 10).until(
        ec.element_to_be_clickable((By.CSS_SELECTOR, "input.md-search__input"))
    )
    query.click()
    query.send_keys("-32020")
    seen: list[str] = []

    def results_naming_the_page(driver: WebDriver) -> bool:
        # The list is drawn again as each key arrives and as the index loads: read it whole, again if a
        # link went stale under the reading, until it names the error page.
        try:
            links = driver.find_elements(By.CSS_SELECTOR, ".md-search-result__list a.md-search-result__link")
            seen[:] = [link.get_attribute("href") or "" for link in links]
        except StaleElementReferenceException:
            return False
        return any(ERROR_PAGE in href for href in seen)

    try:
        WebDriverWait(browser, 15).until(results_naming_the_page)
    except TimeoutException:
        pytest.fail(f"no search result for -32020 links to {ERROR_PAGE} within 15 s; last results: {seen}")


TOOLS_PAGE = "developers/mcp-public-tools/"


@pytest.mark.parametrize("page", [TOOLS_PAGE, ERROR_PAGE])
def test_nothing_needs_a_sideways_scroll_on_a_phone(phone: WebDriver, site_url: str, page: str) -> None:
    phone.get(site_url + page)
    WebDriverWait(phone, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    width, client, tables = phone.execute_script(
        "const page = document.documentElement;"
        "return [page.scrollWidth, page.clientWidth,"
        " [...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().right)];"
    )
    assert width <= client <= PHONE[0]
    assert tables, page
    assert all(right <= client for right in tables), tables  # no table scrolls inside its own box either


def test_the_tools_reference_is_cards_on_a_phone_labelled_with_their_headings(
    phone: WebDriver, site_url: str
) -> None:
    phone.get(site_url + TOOLS_PAGE)
    tables = phone.find_elements(By.CSS_SELECTOR, ".docgen-param-table table")
    assert len(tables) == 4  # two tools, one resource, one prompt
    for table in tables:
        assert not table.find_element(By.TAG_NAME, "thead").is_displayed()
        headings = [th.get_attribute("textContent") for th in table.find_elements(By.TAG_NAME, "th")]
        cells = table.find_elements(By.CSS_SELECTOR, "tbody tr:first-child td")
        labels = [
            phone.execute_script("return getComputedStyle(arguments[0], '::before').content;", cell)
            for cell in cells[1:]
        ]
        assert labels == [f'"{heading}: "' for heading in headings[1:]]
        assert len({cell.location["x"] for cell in cells}) == 1  # one cell under the other
