"""The language server: diagnostics, fixes and routing hovers for the buffers an editor has open."""
