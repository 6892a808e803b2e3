x = 1; y = 2;
a = b = c = 3
a, *rest = [1, 2, 3]
[p, (q, r)] = 1, (2, 3)
(s) = 4
t.u = v[1] = w.x.y = 5
x += 1; x -= 1; x *= 2; x /= 2; x //= 2; x %= 2; x **= 2; x >>= 1; x <<= 1
x &= 1; x |= 1; x ^= 1; x @= m
n: int
n2: "List[int]" = []
(n3): int = 3
obj.attr: float = 1.0
arr[0]: int
del a, b[0], c.d
del (e, f), [g]
assert x, "message"
assert y
raise
raise ValueError("bad")
raise ValueError from None
global gx, gy
pass


def f(a, b=1, /, c=2, *args, d, e=3, **kwargs):
    nonlocal_demo = 1

    def g():
        nonlocal nonlocal_demo
        nonlocal_demo += 1
        return
    return g


def h(pos_only, /):
    yield
    yield pos_only
    x = yield from range(3)
    y = yield 1, 2
    return (yield)


async def co(x):
    await x
    async for item in x:
        print(item)
    else:
        pass
    async with x as y, z:
        pass
    return [i async for i in x if await i]


@decorator
@decorator.attr(1)(2)
@(lambda f: f)
class C(Base, metaclass=Meta, **extra):
    """Doc."""
    field: int = 0

    def method(self) -> None: ...


if a:
    pass
elif b:
    pass
elif c:
    pass
else:
    pass

while x:
    break
else:
    continue_ = 1

for i, (j, k) in enumerate(pairs):
    continue
else:
    pass

for x, in y: pass

try:
    pass
except ValueError as err:
    pass
except (TypeError, KeyError):
    pass
except:
    pass
else:
    pass
finally:
    pass

try:
    pass
finally:
    pass

try:
    pass
except* ValueError as eg:
    pass
except* (TypeError, OSError):
    pass

with open("f") as fh, open("g") as (gh):
    pass

with (open("f") as fh, open("g") as gh,):
    pass

with (a, b):
    pass

with (a, b) as c:
    pass

with (yield):
    pass

if True: x = 1; y = 2
while 0: pass
