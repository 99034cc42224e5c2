"""The one Jinja environment docgen renders with: sandboxed, with bounds on work, size and time.

Everything docgen renders can be changed by a pull request: region templates, the notes' `cause` and
`action`, an example's `client` and `client_note`, the `size` and `repeat` expressions. So all of it goes
through `BoundedSandbox`, built on Jinja's `ImmutableSandboxedEnvironment`:

- no attribute that starts with `_`, no method that changes a list or a dict, no `str.format` (which reaches
  attributes on its own); the only globals are `range` and `namespace`, the only filters the ones listed in
  `JINJA_FILTERS` plus those the caller offers (docgen/render/filters.py);
- every step is charged to the render's budget (docgen/templating/render_budget.py): each loop iteration
  (the code generator wraps every `{% for %}` iterable), each call, filter and operator (all seven operators
  are intercepted, which also stops Jinja from folding `9**9**9` while it compiles), and joining output;
- templates are read by docgen's own reader: regular files inside the templates folder, under the size limit;
- any error while rendering, `{{ 1/0 }}` included, comes out as a `jinja2.TemplateError` whose traceback
  still holds the template's frames, so callers locate it at the template's line.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame, optimizeconst
from jinja2.filters import FILTERS as _ALL_JINJA_FILTERS
from jinja2.runtime import Macro
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import Namespace

from docgen.core.errors import DocgenError
from docgen.core.limits import TEMPLATE_MAX_TEXT
from docgen.templating import render_budget as budget

JINJA_FILTERS = (
    *("abs", "float", "int", "round", "sum", "max", "min", "count", "length", "wordcount"),  # numbers
    *("capitalize", "lower", "upper", "title", "trim", "truncate", "string", "format", "tojson"),  # text
    *("indent", "replace", "join"),  # text, with their results bounded before they are made
    *("d", "default", "first", "last", "list", "items", "dictsort", "sort", "reverse", "unique"),  # data
    *("map", "select", "reject", "selectattr", "rejectattr", "groupby"),  # data, item by item
)
"""Jinja's own filters that templates and notes may use: none of them can make more than a bounded multiple
of its input. Left out: those that pad or repeat (`center`, `wordwrap`, `batch`, `slice`), the random and
the HTML ones, and `attr` and `pprint`, which reach into objects."""

_REFUSED_STR_METHODS = frozenset({"format", "format_map", "translate", "maketrans"})
_SAFE_ATTRIBUTES_KEPT = 4096
"""How many (type, attribute name) answers of the sandbox one environment keeps; past it, it asks again."""


class TemplateFailure(jinja2.TemplateRuntimeError):
    """A template failed with an ordinary Python error (`{{ 1/0 }}`, a filter given a list for a number)."""


class BoundedCodeGenerator(CodeGenerator):
    """Jinja's code generator, with every loop and every `~` going through the environment's budget."""

    def visit_For(self, node: nodes.For, frame: Frame) -> None:
        if not _counted(node.iter):
            # `environment.iterate(...)`, built from the node types Jinja offers extensions for this.
            iterate = nodes.EnvironmentAttribute("iterate", lineno=node.iter.lineno)
            node.iter = nodes.Call(iterate, [node.iter], [], None, None, lineno=node.iter.lineno)
        super().visit_For(node, frame)

    @optimizeconst
    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.join_values((")
        for argument in node.nodes:
            self.visit(argument, frame)
            self.write(", ")
        self.write("))")


def _counted(iterable: nodes.Node) -> bool:
    return (
        isinstance(iterable, nodes.Call)
        and isinstance(iterable.node, nodes.EnvironmentAttribute)
        and iterable.node.name == "iterate"
    )


class BoundedTemplate(jinja2.Template):
    """A template whose `render` runs under a budget and turns any failure into a jinja2.TemplateError."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        return self._bounded(lambda: super(BoundedTemplate, self).render(*args, **kwargs))

    def render_over(self, variables: Mapping[str, Any]) -> str:
        """`render`, reading each name from `variables` only when the template uses it: the mapping is not
        copied first (as `render` does), so one that records what is read sees exactly that. The
        environment's globals (`range`, `namespace`) come after `variables`."""
        # An empty mapping first: Jinja copies the first (on an error, to show the template's locals).
        layered = ChainMap({}, variables, self.globals)  # type: ignore[arg-type]

        def run() -> str:
            try:
                context = self.new_context(layered, shared=True)  # type: ignore[arg-type]
                return str(self.environment.concat(self.root_render_func(context)))
            except Exception:
                self.environment.handle_exception()
                raise  # handle_exception always raises; this only tells the type checker

        return self._bounded(run)

    @staticmethod
    def _bounded(run: Callable[[], str]) -> str:
        with budget.render_budget():
            try:
                return run()
            except (jinja2.TemplateError, DocgenError):
                raise
            except Exception as err:  # the template's own failure: 1/0, a wrong type, too deep a recursion
                failure = TemplateFailure(_describe(err))
                raise failure.with_traceback(err.__traceback__) from err

    def generate(self, *args: Any, **kwargs: Any) -> Iterator[str]:
        yield self.render(*args, **kwargs)  # streaming would escape the output bound


def _describe(err: BaseException) -> str:
    if isinstance(err, RecursionError):
        return "the template calls itself too deeply (RecursionError)"
    if isinstance(err, MemoryError):
        return "the template ran out of memory (MemoryError)"
    return f"{err} ({type(err).__name__})" if str(err) else type(err).__name__


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox with docgen's bounds; strict about undefined names, never escaping HTML."""

    template_class = BoundedTemplate
    code_generator_class = BoundedCodeGenerator
    intercepted_binops = frozenset(ImmutableSandboxedEnvironment.default_binop_table)
    code_version = 1
    """Changes whenever the code this environment generates changes (the template cache keys on it)."""

    def __init__(self, *, filters: Mapping[str, Callable[..., Any]] | None = None, **options: Any) -> None:
        # optimized=False: Jinja's optimizer folds constant expressions at compile time, but this sandbox
        # intercepts every operator, which leaves it next to nothing to fold (the code generated for every
        # template in templates/ is the same with it or without it), for a sixth of the compile time.
        super().__init__(undefined=jinja2.StrictUndefined, autoescape=False, optimized=False, **options)
        offered = {name: _ALL_JINJA_FILTERS[name] for name in JINJA_FILTERS}
        offered.update(filters or {})
        self.filters = {name: bounded_filter(name, function) for name, function in offered.items()}
        self.globals = {"range": budget.bounded_range, "namespace": Namespace}
        self.concat = self.join_output  # type: ignore[method-assign]
        self._safe_attributes: dict[tuple[type, str], bool] = {}

    def compile(self, source: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().compile(source, *args, **kwargs)
        except (RecursionError, MemoryError, ValueError, SyntaxError) as err:
            # Nested too deeply for Jinja's parser or Python's compiler, or a number too long to read.
            reason = (
                "it nests too deeply" if isinstance(err, RecursionError | SyntaxError) else _describe(err)
            )
            raise jinja2.TemplateSyntaxError(f"the template cannot be compiled: {reason}", lineno=1) from err

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        # Every rule here and in Jinja's sandbox depends on the object's type and the name alone (never on
        # the value), so each answer is kept by the two: a long table reads the same few attributes of the
        # same few types thousands of times. The memo is bounded, as a template may name many attributes.
        key = (type(obj), attr)
        safe = self._safe_attributes.get(key)
        if safe is None:
            safe = self._is_safe_attribute(obj, attr, value)
            if len(self._safe_attributes) < _SAFE_ATTRIBUTES_KEPT:
                self._safe_attributes[key] = safe
        return safe

    def _is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if isinstance(obj, str) and attr in _REFUSED_STR_METHODS:
            return False
        return super().is_safe_attribute(obj, attr, value)

    def wrap_str_format(self, value: Any) -> None:
        return None  # str.format is refused outright (is_safe_attribute), not wrapped

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        if __obj.__class__ is Macro:
            # A macro of the template itself: what it does is charged step by step as it runs, and its
            # output is bounded when it is joined, so only the call itself is charged here. Most calls in
            # a long table are macro calls, and the checks below cost more than the macro.
            budget.current().charge(1 + len(args) + len(kwargs))
            return __context.call(__obj, *args, **kwargs)
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "a function")
        running = budget.current()
        running.charge(budget.cost(owner, *args, *kwargs.values()))
        budget.refuse_large_arguments(f"{name}()", args, kwargs)
        if isinstance(owner, str):
            if name == "join" and len(args) == 1:
                args = (list(args[0]),)
                budget.refuse_length(budget.joined_length(args[0], owner), "the joined text")
            budget.refuse_length(
                budget.predicted_length(name, owner, args, kwargs), f"the result of {name}()"
            )
        result = super().call(__context, __obj, *args, **kwargs)
        running.charge(budget.size(result))
        budget.refuse_large(result, f"the result of {name}()")
        return result

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        budget.current().charge(budget.cost(left, right))
        budget.check_binop(operator, left, right)
        result = super().call_binop(context, operator, left, right)
        budget.refuse_large(result, f"the result of `{operator}`")
        return result

    def iterate(self, iterable: Iterable[Any]) -> Iterator[Any]:
        """A loop's items, each charged one unit."""
        running = budget.current()
        for item in iterable:
            running.charge(1)
            yield item

    def join_values(self, values: tuple[Any, ...]) -> str:
        """`a ~ b`: the pieces as text, joined once their total length is known to be within bounds."""
        texts = [str(value) for value in values]
        return self.join_output(texts)

    def join_output(self, chunks: Iterable[str]) -> str:
        """Output joined (a render's, a macro's, a `{% set %}` block's), charged and bounded as it grows."""
        running, parts, length = budget.current(), [], 0
        for chunk in chunks:
            length += len(chunk)
            if length > TEMPLATE_MAX_TEXT:  # tested here: a call per chunk costs more than the join
                budget.refuse_length(length, "the rendered text")
            parts.append(chunk)
        running.charge(length + len(parts))
        return "".join(parts)


def bounded_filter(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """`function` as a filter that is charged, refuses results past the limits, and turns a wrong argument
    into a TemplateError naming the filter. It takes the render context, so Jinja never runs it while
    compiling (where no budget applies)."""
    wants = getattr(getattr(function, "jinja_pass_arg", None), "name", None)

    @jinja2.pass_context
    def bounded(context: Any, value: Any, *args: Any, **kwargs: Any) -> Any:
        running = budget.current()
        running.charge(budget.cost(value, *args, *kwargs.values()))
        budget.refuse_large_arguments(f"the filter {name!r}", args, kwargs)
        if name == "join" and not isinstance(value, list | tuple | str):
            value = list(value)
        if name == "join":
            separator = args[0] if args else kwargs.get("d", "")
            budget.refuse_length(budget.joined_length(list(value), str(separator)), "the joined text")
        budget.refuse_length(budget.predicted_length(name, value, args, kwargs), f"the result of |{name}")
        leading = {"context": (context,), "eval_context": (context.eval_ctx,)}.get(wants or "", ())
        if wants == "environment":
            leading = (context.environment,)
        try:
            result = function(*leading, value, *args, **kwargs)
        except (TypeError, ValueError, ArithmeticError, LookupError) as err:
            raise TemplateFailure(f"the filter {name!r} cannot take {budget.short(value)}: {err}") from err
        running.charge(budget.size(result))
        budget.refuse_large(result, f"the result of |{name}")
        return result

    bounded.__name__ = name
    return bounded
