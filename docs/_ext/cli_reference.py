"""The command-line reference, written from ``surfflow.cli.build_parser()`` (argparse)."""

from __future__ import annotations

import argparse

from surfflow.cli import build_parser


def _options(parser: argparse.ArgumentParser) -> list[str]:
    rows = ["| argument | meaning | default |", "|---|---|---|"]
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        if action.option_strings:
            names = ", ".join(action.option_strings)
            if action.nargs != 0:
                names += f" {action.metavar or action.dest.upper()}"
        else:
            names = action.metavar or action.dest
            names = f"[{names}]" if action.nargs == "?" else names
        text = (action.help or "") % {"default": action.default} if action.help else ""
        if action.choices:
            text += " (one of " + ", ".join(f"`{c}`" for c in action.choices) + ")"
        if action.required and action.option_strings:
            text += " (required)"
        default = "" if action.default in (None, False, argparse.SUPPRESS) else f"`{action.default}`"
        rows.append(f"| `{names}` | {text.replace('|', '/')} | {default} |")
    return rows


def cli_reference() -> str:
    """The Markdown of every command: usage, description and arguments."""
    parser = build_parser()
    lines = ["## surfflow", "", "```text", parser.format_usage().strip(), "```", "",
             parser.description or "", ""] + _options(parser) + [""]
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        lines += [f"## surfflow {name}", "", "```text", sub.format_usage().strip(), "```", "",
                  (sub.description or "").replace("%%", "%"), ""] + _options(sub) + [""]
    return "\n".join(lines)
