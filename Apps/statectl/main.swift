print("statectl: not yet built")
