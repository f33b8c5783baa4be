"""The abstract syntax tree of a DDlog module.

Every node is a frozen dataclass whose first field is its :class:`Span`. Names are kept
as written (possibly ``::``-qualified); name resolution happens later. Features whose
semantics are not implemented yet are still represented here, so that later stages can
reject them with a located error instead of a parse error.

The nodes live in :mod:`dl2sql.ast.base`, :mod:`dl2sql.ast.type_exprs`,
:mod:`dl2sql.ast.exprs` and :mod:`dl2sql.ast.decls`; this module gathers them, so that
the stages read ``A.Rule``, ``A.EVar``, ... from one name.
"""
from dl2sql.ast.base import *  # noqa: F401,F403
from dl2sql.ast.decls import *  # noqa: F401,F403
from dl2sql.ast.exprs import *  # noqa: F401,F403
from dl2sql.ast.type_exprs import *  # noqa: F401,F403
