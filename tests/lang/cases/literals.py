ints = [0, 00, 0_0, 1, 123_456, 0x1F, 0X_ff, 0o17, 0O_7, 0b1010, 0B_1, 9223372036854775807,
        9223372036854775808, 0xFFFFFFFFFFFFFFFFFFFFFFFF, 0o7777777777777777777777777, 0b1111111111111111111111111111111111111111111111111111111111111111111,
        123456789012345678901234567890]
floats = [0.0, 1., .5, 1e10, 1E-5, 1_0.5_0, 3.14e+0_1, 1e308, 1e309, 0e0, 00.5, 09.5, 1.7976931348623157e308, 5e-324, 2.5e-400]
imag = [1j, 1J, 1.5j, .5e3j, 0j, 1_0j]
strs = ['a', "b", '''c''', """d""", 'it\'s', "say \"hi\"", 'tab\there', 'nl\n', '\\', '\x41\101\u00e9\U0001F600',
        '\a\b\f\v\r\0', 'unknown \d escape', 'line \
continued', r'raw\n', R"raw\"", u'unicode', U"upper u", 'é日本', '\ud800']
bts = [b'bytes', B"x", rb'\d', Br'\n', bR"a", RB'b', b'\x00\xff\377\n', b'\u1234']
cat = 'a' 'b' "c" '''d'''
cat2 = ("multi"
        "line"
        'concat')
cat3 = u'first u' 'then plain'
tq = """multi
line
  string"""
tq2 = '''with ' and " and \''' inside'''
empty = ''
bempty = b''
