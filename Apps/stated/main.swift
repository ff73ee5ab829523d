print("stated: not yet built")
