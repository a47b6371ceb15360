IMPORTS_QUEUE = "imports"
