# A module with a syntax error, imported by the golden fail_import_module_syntax_error.tpy.
def scale(x):
    return x * 2 +
