"""Bit counts for the compiled kernels: LLVM's ``ctpop``, ``cttz`` and ``ctlz``.

One machine instruction each on current CPUs (``popcnt``, ``tzcnt``,
``lzcnt``), where a loop over the bits would take one step per bit: the
kernels keep sets of cells as 64-bit words and walk or count them with
these, and :func:`~gridwidgets.fast.mt.randbelow` takes the bit length of
``n`` from :func:`leading_zeros`.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

__all__ = ["leading_zeros", "popcount", "trailing_zeros"]


@intrinsic
def popcount(typingctx: Any, x: Any) -> Any:
    """The number of bits set in the integer ``x`` (all 64 of an ``int64``, sign bit included)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def trailing_zeros(typingctx: Any, x: Any) -> Any:
    """The index of the lowest set bit of ``x`` (the bit width for ``0``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@intrinsic
def leading_zeros(typingctx: Any, x: Any) -> Any:
    """The zero bits above the highest set bit of ``x`` (the bit width for ``0``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen
