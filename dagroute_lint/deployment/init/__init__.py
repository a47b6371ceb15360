"""``inventory init``: build a starting inventory from what a deployment says about itself."""
