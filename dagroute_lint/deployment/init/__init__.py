"""``inventory init``: build a starting inventory from what a deployment says about itself."""

# The runtime a generated inventory names when no option says otherwise; here, so the command
# line can show it in ``--help`` without loading the builder.
DEFAULT_RUNTIME = "base"
