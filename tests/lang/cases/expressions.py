a = 1 if b else 2 if c else 3
b = not a and b or c and not d
c = a < b <= c > d >= e == f != g in h not in i is j is not k
d = a | b ^ c & d << e >> f + g - h * i / j // k % l @ m ** -n ** ~o
e = -1 ** 2, +x, ~y, not z
f = lambda: 0
g = lambda x, y=1, *a, z, w=2, **k: x + y
h = lambda *, k: k
i = lambda x, /, y: x
j = [x for x in range(10) if x % 2 if x % 3 for y in range(x)]
k = {x: y for x, y in items}
l = {x for x in s}
m = (x for x in s)
n = sum(x for x in s)
o = [*a, *b, c]
p = {*a, b}
q = {**a, 'b': 1, **c}
r = (*a, *b)
s = f(*args, **kwargs)
t = f(a, *b, c=1, *d, **e)
u = x[1:2, ::3, ...]
v = x[:]
w = x[::]
x_ = x[1:]
y_ = x[:2]
z_ = x[a, b]
aa = x[a:b:c]
bb = x[(a, b)]
cc = x[*a]
dd = x[*a, b]
ee = (y := 10)
ff = [z := 1, z + 1]
if (n := len(a)) > 10: pass
gg = f(x := 1)
hh = x[y := 1]
ii = a.b.c.d(1)(2)[3].e
jj = (1,)
kk = ()
ll = []
mm = {}
nn = (((1)))
oo = (yield_ := 1)
pp = ...
qq = None, True, False
rr = a if b else (lambda: c)
ss = [i for i in range(3)][0]
tt = f(a)(b)(c)
uu = -x ** -y
vv = (a for b in c for d in e if f)
ww = {k: v for k in a for v in b}
xx = [[y for y in x] for x in z]
yy = f(a for a in b)
zz = g((a for a in b), c)
