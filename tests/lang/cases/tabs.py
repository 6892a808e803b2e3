if x:
	if y:
		pass
	else:
	    pass
z = 1
