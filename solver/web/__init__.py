"""The page that deals and solves in the browser: `wedlock web DIR` writes it (docs/WEB.md)."""
