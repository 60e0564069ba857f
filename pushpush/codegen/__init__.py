"""Code generation: the linked system model in, files out (through Jinja2 templates).

Each renderer is a pure function ``render_*(linked) -> dict[relative path, text]``;
:func:`pushpush.codegen.render.write_tree` writes such a mapping atomically.
"""
