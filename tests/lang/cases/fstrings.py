name = "x"
a = f"hello {name}"
b = f'{name!r} {name!s} {name!a}'
c = f"{name:>10}"
d = f"{value:{width}.{precision}f}"
e = f"{name=}"
f_ = f"{name = }"
g = f"{name=!s}"
h = f"{name=:>10}"
i = f"{{literal}} {{ {name} }}"
j = f"a" "b" f"{c}" 'd'
k = rf"raw \n {name}"
l = fR"{name}\d"
m = F"{a['key']}"
n = f"{d['x'] if False else 1}" if False else f"{'nested'}"
o = f"{f'{inner}'}"
p = f"{a, b}"
q = f"{x!r:^{w}}"
r = f"{3.14:.2f} {1 + 2} {[1, 2][0]} {(lambda: 1)()}"
s = f"""triple {name}
second line {name!r}
"""
t = f'''{
    name
}'''
u = f"{a:{b}{c}}"
v = f"{x:}"
w = f""
x = f"{x}" f"{y}"
y = "plain" f"{x}" u"u"
z = u"u-first" f"{x:>{w}}"
aa = f"{x == y} {x != y} {x <= y} {x >= y} {x < y} {x > y}"
bb = f"{ x }"
cc = f"""{
a}"""
dd = f"""ab{
a,b}"""
ee = f"{'a' 'b'}"
ff = f"\x41{x}\u00e9"
gg = f"{x:\x41}"
hh = f"{yield_}"
ii = f"{*a, b}"
jj = f"{x:{y}}"
kk = f'{x!r}' 'tail' f'{y:}'
