"""Issue 28's must-show, per framework: which test proves each item on which fixture application. The
fixtures (tests/fixtures/servers/): FastAPI `fastapi_app` (its stock router nested in the items router,
`HTTPException(404)`, `_(...)`, a 202 `JSONResponse`), Starlette `starlette_app` (Mount in Mount,
`@staff_only`), Flask `flask_app` (blueprint in blueprint, `@login_required`, `abort(404)`), REST framework
`drf_app` (`include()`, a router, a permission class, `EXCEPTION_HANDLER`), aiohttp `aiohttp_app` (sub-app
in sub-app, a decorator and a middleware), Litestar `litestar_app` (Router in Router, a dependency and a
guard). The test below holds the table to the test files: a renamed or deleted test fails it.

| item | FastAPI | Starlette | Flask | DRF | aiohttp | Litestar |
|---|---|---|---|---|---|---|
| prefixes, nested routers | R1 | S1 | F1 | D1 | A1 | L1 |
| a dependency or decorator that raises | R2, G1 | S1 | F2 | D1 | A2 | L1 |
| a custom exception subclass | R2 | S1 | F2 | D2 | A2 | L2 |
| a handler that converts a domain error | R2 | S1 | F2 | D2 | A2 | L2 |
| a framework default with no message | R3 | S1 | F1 | D2 | A2 | L2 |
| a translated message | R3 | S1 | F1 | D2 | A2 | L3 |
| two errors, one status, one route | R3 | S1 | F1 | D2 | A2 | L1 |
| a success through an error builder | R4, O2 | S2 | F4 | D3 | A3 | L4 |
| catalog exact, as the client gets it | R2, O2 | S1, S2 | F2, F3 | D2, D4 | A2, A3 | L2, L4 |
| OpenAPI fragment exact and valid | R3 | S3 | F5 | D5 | A4 | L5 |
| merged into the served OpenAPI, valid | O1 | - | - | D6 | - | M1 |
| check: 1 on a change or new site, 0 on a harmless edit | C1, O3 | S4 | K1, K2, K3 | D7 | A5 | M2, M3, M4 |
| a coverage line per catalog | V1 | V1 | V1 | V1 | V1 | V1 |
| the framework not installed: a located error | I1 | I1 | I1 | I1 | I1 | I1 |
| a router docgen cannot follow: a located finding | G2 | S5 | K4 | D8 | A6 | L6 |

`-`: Starlette, Flask and aiohttp serve no OpenAPI document of their own; their fragment is validated alone.
A status docgen cannot read is a located `run-time-value-unstated` (C2); a router, blueprint, urls module,
sub-application or route list it cannot follow is `source-unfollowed` (last row); FastAPI's dict detail is
read inside its body (G3).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent

PROOFS = {
    "R1": ("extract/test_routes.py", "test_every_operation_with_its_prefix_and_dependencies"),
    "R2": ("extract/test_routes.py", "test_each_error_once_with_its_status_detail_and_handler"),
    "R3": ("extract/test_routes.py", "test_the_fragment_lists_exactly_the_expected_responses"),
    "R4": ("extract/test_routes.py", "test_each_error_once_with_its_status_detail_and_handler"),
    "O1": (
        "check/test_openapi.py",
        "test_merged_into_the_app_its_own_openapi_lists_every_error_and_validates",
    ),
    "O2": ("check/test_openapi.py", "test_the_app_answers_what_the_fragment_says"),
    "O3": (
        "check/test_openapi.py",
        "test_a_new_raise_missing_from_the_committed_openapi_is_flagged_on_the_route",
    ),
    "C1": ("check/test_routes.py", "test_a_changed_status_fails_and_a_harmless_edit_passes"),
    "C2": ("check/test_routes.py", "test_a_status_docgen_cannot_read_is_a_located_finding_until_stated"),
    "G1": (
        "extract/test_fastapi_real_app_gaps.py",
        "test_a_module_level_instance_as_a_dependency_runs_its_call_method",
    ),
    "G2": (
        "extract/test_fastapi_real_app_gaps.py",
        "test_a_router_included_through_an_attribute_is_a_located_finding",
    ),
    "G3": ("extract/test_fastapi_real_app_gaps.py", "test_a_dict_as_the_detail_is_read_inside_fastapis_body"),
    "S1": ("extract/test_starlette_app.py", "test_every_operation_with_its_errors_prefix_and_condition"),
    "S2": ("extract/test_starlette_app.py", "test_the_catalog_is_what_the_application_answers"),
    "S3": (
        "extract/test_starlette_app.py",
        "test_the_committed_catalog_fragment_and_page_are_current_and_the_fragment_is_valid",
    ),
    "S4": (
        "extract/test_starlette_app.py",
        "test_check_fails_on_a_changed_answer_and_passes_a_harmless_edit",
    ),
    "F1": ("extract/test_flask_app.py", "test_every_operation_with_its_prefixes_views_and_what_runs_first"),
    "F2": ("extract/test_flask_app.py", "test_each_error_once_with_its_status_detail_handler_and_body_key"),
    "F3": ("extract/test_flask_app.py", "test_the_application_answers_each_error_as_the_catalog_says"),
    "F4": ("extract/test_flask_app.py", "test_successes_made_the_way_errors_are_made_are_not_errors"),
    "F5": (
        "extract/test_flask_app.py",
        "test_the_fragment_lists_exactly_the_expected_responses_and_validates",
    ),
    "K1": ("check/test_flask_check.py", "test_a_changed_status_fails_at_its_line"),
    "K2": ("check/test_flask_check.py", "test_an_added_error_fails_at_its_route"),
    "K3": ("check/test_flask_check.py", "test_a_comment_and_a_blank_line_change_nothing"),
    "D1": ("extract/test_drf.py", "test_every_operation_with_its_path_and_function"),
    "D2": ("extract/test_drf.py", "test_each_operation_answers_exactly_the_errors_found_by_hand"),
    "D3": ("extract/test_drf.py", "test_success_responses_are_not_errors"),
    "D4": ("extract/test_drf.py", "test_each_error_is_what_the_running_application_answers"),
    "D5": ("extract/test_drf.py", "test_the_fragment_lists_exactly_the_expected_responses_and_is_valid"),
    "D6": ("extract/test_drf.py", "test_the_fragment_merges_into_the_document_rest_framework_builds"),
    "D7": (
        "extract/test_drf.py",
        "test_check_fails_on_a_changed_status_or_added_site_and_passes_harmless_edits",
    ),
    "A1": ("extract/test_aiohttp_app.py", "test_every_operation_with_its_prefixes_views_and_decorators"),
    "A2": ("extract/test_aiohttp_app.py", "test_each_error_once_with_the_status_and_body_the_client_gets"),
    "A3": ("extract/test_aiohttp_app.py", "test_the_catalog_says_what_the_installed_aiohttp_sends"),
    "A4": ("extract/test_aiohttp_app.py", "test_the_fragment_is_exact_and_valid"),
    "A5": (
        "extract/test_aiohttp_app.py",
        "test_check_fails_on_a_changed_status_or_an_added_raise_and_not_on_a_comment",
    ),
    "L1": (
        "extract/test_litestar_app.py",
        "test_every_operation_under_its_layers_paths_with_its_guards_and_dependencies",
    ),
    "L2": ("extract/test_litestar_app.py", "test_each_error_once_with_the_status_and_detail_the_client_gets"),
    "L3": ("extract/test_litestar_app.py", "test_a_translated_message_is_its_message_id"),
    "L4": ("extract/test_litestar_app.py", "test_the_application_answers_every_error_as_counted"),
    "L5": (
        "extract/test_litestar_app.py",
        "test_the_fragment_lists_exactly_the_counted_responses_and_validates",
    ),
    "M1": (
        "check/test_litestar_openapi.py",
        "test_merged_into_the_app_its_served_document_lists_every_error_and_validates",
    ),
    "M2": ("check/test_litestar_openapi.py", "test_check_passes_on_the_fixture_and_after_a_harmless_edit"),
    "M3": ("check/test_litestar_openapi.py", "test_check_fails_on_a_changed_status"),
    "M4": ("check/test_litestar_openapi.py", "test_check_fails_on_an_added_site"),
    "V1": ("extract/test_framework_coverage.py", "test_extract_ends_each_catalog_with_its_coverage_line"),
    "S5": ("extract/test_starlette_app.py", "test_a_mount_or_route_docgen_cannot_follow_is_a_located_notice"),
    "K4": (
        "check/test_flask_check.py",
        "test_a_blueprint_registered_by_an_expression_docgen_cannot_follow_is_a_located_finding",
    ),
    "D8": (
        "extract/test_drf_styles.py",
        "test_an_include_docgen_cannot_follow_is_a_located_notice_and_finding",
    ),
    "A6": (
        "extract/test_aiohttp_app.py",
        "test_a_sub_application_or_table_docgen_cannot_follow_is_a_located_finding",
    ),
    "L6": (
        "extract/test_litestar_styles.py",
        "test_a_route_handler_entry_docgen_cannot_find_is_a_located_notice_and_finding",
    ),
    "I1": (
        "extract/test_framework_installed.py",
        "test_a_framework_that_is_not_installed_is_a_located_error",
    ),
}


def _defined(file: Path) -> set[str]:
    tree = ast.parse(file.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_every_cell_names_a_proof_and_every_proof_is_a_test_that_exists() -> None:
    table = __doc__ or ""
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| item")]
    cells = [cell for row in rows for cell in row.strip("|").split("|")[1:]]
    assert len(rows) == 15 and all(cell.strip() for cell in cells)  # every item, every framework
    named = set(re.findall(r"\b([A-Z]\d)\b", table))
    assert named == set(PROOFS)
    for file, test in PROOFS.values():
        assert test in _defined(TESTS / file), f"{file}::{test}"
