# Edge cases checked against CPython 3.11 (one small program per block).
x = f"{'a'!r:{'b'}}"
x = f"{x}}}"
x = f"{{{x}"
x = f"{x = !r:>{w}}"
x = f"{ x = }"
x = f"{x:{{}}>10}"
x = f"{x:a\nb}"
x = f"\{x}"
x = rf"\N{x}"
x = f"{a!r}" f"{b!s}" "c" f"{d!a}"
x = f"{(lambda: 1)}"
x = f"{a:=1}"
x = f"{(a:=1)}"
x = f"{a if b else c}"
x = f"{[1,2][0]:{'>'}{10}}"
x = f"""{
  a
  +
  b
}"""
x = (f"a"
     f"{b}"
     f"c{d}")
x = 1if y else 2
x = [0x1for x in y]
x = 1_000_000.000_1e1_0j
x = 0_0
x = 00
x = 0.
x = 1e+5
x = 1E-5J
x = 9223372036854775807 + 9223372036854775808 + 18446744073709551616
x = 0o777777777777777777777777777777
x = 0b11111111111111111111111111111111111111111111111111111111111111111
x = 0xffffffffffffffffffffffffffffff
x = "\777\0\00\000\0000"
x = b"\777\0"
x = "\u00e9\U0001f600\x00\xff"
x = '\ud83d\ude00'
x = 'a\
b'
x = """\
"""
x = b'\N{x}\u1234'
x = U'upper'
x = u'lower' 'x'
x = 'x' u'lower'
def f(*args: *Ts): pass
def f(a, /, b, *, c): pass
def f(a=1, /, b=2, *c, d, e=3, **f): pass
lambda: (yield)
x = [i for i in range(3) if (j := i)]
print(*a, *b, sep='')
x = a if b else c if d else e
x = not a == b
x = -a ** -b
x = a @ b @ c
x = a[b:c:d, e:f, ...]
x = a[()]
x = a[b,]
x = {**a, **b}
x = {a: b for a, b in c}
x = await a ** b
x: list[int] = []
x.y: int
(x): int = 1
for x, *y in z: pass
with a as (b, c): pass
with a as [b, c], d as e.f, g as h[0]: pass
import a.b.c
from .a.b import c
from ... import d
from .... import e
from ....a import e
try:
    pass
except* A:
    pass
else:
    pass
finally:
    pass
if a: b
elif c: d
else: e
class A: x = 1; y = 2
@a.b[c]
def f(): pass
async def f():
    async with a as b, c as d: pass
    await f(await g)
    return [x async for x in y async for z in x]
global x; nonlocal y
x = yield
x = yield from a
x = (yield a, b)
del (a), [b], (c, d)
del a,
assert (a, b)
raise a from b
match (a, b):
    case (1, 2): pass
match a:
    case {**rest}: pass
    case {1: a, **rest}: pass
    case [1, 2, *_]: pass
    case str() | bytes(): pass
    case {"a": _, "b": _,}: pass
    case (a, b,): pass
    case [a,]: pass
    case a.b.c: pass
    case -0: pass
    case -0.5 | -1j: pass
    case 1 - 2j: pass
    case "a" "b": pass
    case b"a": pass
match a,:
    case _: pass
match *a, b:
    case _: pass
match(a)
match[a]
match.a
match + 1
match *a
x = a if b else lambda: c
x = [*a, *b]
f(**{'a': 1})
f(a)(b)(c)
x = a.b.c.d
x = ...
x = ... if ... else ...
x = 'a' 'b' f'c' 'd'
x = 1 < 2 > 3 == 4 != 5 <= 6 >= 7 is 8 is not 9 in 10 not in 11
x = ~a | b ^ c & d << e >> f
if True:
    pass
  # comment at other indentation
    x = 1
if True:
    x = (1,
2)
    y = 2
x = [
    1,
    2
]
x = {
}
s = 'a\tb'
s = r"\""
s = '''a'b''c'''
s = """a""b"c"""
x = a.if_
print(f"{x!r:^30}")
def foo():
    # statements that end with semicolons
    x = 1; pass; del x;
if x:
    y = 1;
else:
    z = 2;  # comment
class K: pass;
