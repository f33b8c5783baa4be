"""DDlog front end: source text -> AST (:func:`parse_module`)."""
from dl2sql.syntax.parser import parse_expr, parse_module

__all__ = ["parse_module", "parse_expr"]
