match command.split():
    case [action]:
        pass
    case [action, obj]:
        pass
    case ["go", direction] | ["move", direction]:
        pass
    case ["drop", *objects]:
        pass
    case [*_, last]:
        pass
    case Point(x=0, y=0):
        pass
    case Point(1, 2, z=3):
        pass
    case Point():
        pass
    case {"x": 1, **rest}:
        pass
    case {1: _, "a": [1, 2], a.b: c}:
        pass
    case {}:
        pass
    case -1 | 1.5 | 2j | -3+4j | 5-6j:
        pass
    case "str" "concat" | b"bytes":
        pass
    case None | True | False:
        pass
    case Color.RED | mod.Color.GREEN:
        pass
    case (a, b, *c):
        pass
    case (a):
        pass
    case ():
        pass
    case []:
        pass
    case (1 | 2) as num if num > 1:
        pass
    case x if x:
        pass
    case _:
        pass

match a, b:
    case 1, 2:
        pass
    case *x, y:
        pass

match = 1
match.x = 2
match(3)
match[4] = 5
case = 6
_ = 7
print(match, case, _)
