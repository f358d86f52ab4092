import Magpie

print("magpie")
