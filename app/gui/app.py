"""Start the Castra window."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication, QMainWindow, QTreeWidget, QTreeWidgetItem

from app.paths import load_registry
from app.rules.registry import Registry


class MainWindow(QMainWindow):
    """Until the builder lands: the loaded rulesets and their army lists."""

    def __init__(self, registry: Registry) -> None:
        super().__init__()
        self.setWindowTitle("Castra")
        tree = QTreeWidget()
        tree.setHeaderLabels(["Ruleset / army list", "Author", "Counts"])
        for rs in registry:
            top = QTreeWidgetItem(
                [rs.meta.name, rs.meta.author or rs.meta.author_note or "", rs.meta.counts]
            )
            for army in rs.armies.values():
                top.addChild(QTreeWidgetItem([f"{army.name} ({army.side})", "", ""]))
            tree.addTopLevelItem(top)
        for key, err in registry.failures.items():
            tree.addTopLevelItem(QTreeWidgetItem([f"FAILED: {key}", str(err.first), ""]))
        tree.expandAll()
        tree.resizeColumnToContents(0)
        self.setCentralWidget(tree)
        self.resize(900, 600)


def run() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    registry = load_registry()
    from app.store import StoreError, open_store, seed_samples

    try:
        seed_samples(open_store(), registry=registry)
    except StoreError as exc:
        print(f"castra: {exc}", file=sys.stderr)
    window = MainWindow(registry)
    window.show()
    return int(app.exec())
