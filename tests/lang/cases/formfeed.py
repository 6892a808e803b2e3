x = 1

if x:
    pass
