# comments everywhere
x = (1 +  # trailing comment
     2)
y = [
    1,
    2,  # comment

    3,
]
z = 1 + \
    2 + \
        3
if (a and
        b):
    pass
def f(a,
      b):  # type: (int, int) -> None
    # type: ignore
    return a  # type: int


class K: pass
class L(): pass
def g(): return 1; pass
for i in x: pass; break
ünïcode_名前 = 1
αβγ = ünïcode_名前 + 1
async_ = 1
await_ = 2
print(x ,y ,z)
x = [1,2,3,][0]
if x:

    pass

    # dedent after comment
y = 1
while True:
  if x:
        pass
  break
