"""A minimal type environment with the std collection and Option types, for unit
tests that need types without compiling a program."""
from dl2sql.types.model import MAP, OPTION, SET, VEC, CtorDef, TVar, TypeDefn, TypeEnv


def std_env() -> TypeEnv:
    """Vec, Set, Map (extern) and Option, as ddlog_std declares them."""
    env = TypeEnv()
    for name in (VEC, SET):
        env.add(TypeDefn(name, ("A",), extern=True))
    env.add(TypeDefn(MAP, ("K", "V"), extern=True))
    env.add(TypeDefn(OPTION, ("A",), (CtorDef("ddlog_std::None", ()),
                                      CtorDef("ddlog_std::Some", (("x", TVar("A")),)))))
    return env
