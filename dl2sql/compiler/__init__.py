"""The compiler: DDlog source to plans (:mod:`dl2sql.compiler.pipeline`) and the
printable form of each stage (:mod:`dl2sql.compiler.emit`)."""
from dl2sql.compiler.pipeline import (ENGINE_PASSES, PASSES, CompiledProgram, Source,
                                      compile_file, compile_source)

__all__ = ["CompiledProgram", "Source", "PASSES", "ENGINE_PASSES", "compile_file",
           "compile_source"]
