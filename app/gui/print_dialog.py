"""The print dialog: which document, for which ruleset (a reference sheet), a declared
document's side and options (built from its declaration, :mod:`app.rules.documents`), the
page size and the file. Loaded when it is first opened
(:meth:`app.gui.printing.Printer.dialog`), not at the window's start."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.core.roster import Roster
from app.gui.printables import Document, Printable, PrintJob, declared, suggested_name, title
from app.rules.documents import DocumentOption, DocumentSpec, OptionValue, declared_by
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset


class PrintDialog(QDialog):
    """Choose the document, its ruleset (for a reference sheet), a declared document's side
    and options, the page size and the file."""

    def __init__(
        self,
        parent: QWidget | None,
        registry: Registry,
        roster: Roster | None,
        document: Printable,
        *,
        folder: str,
        page_size: str,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("printDialog")
        self.setWindowTitle("Print or export PDF")
        self.registry = registry
        self.roster = roster
        self._folder = folder
        self._path_edited = False

        self.document = QComboBox()
        self.declared = declared(registry)
        for doc in [*Document, *self.declared]:
            self.document.addItem(title(doc), doc)
        self.ruleset = QComboBox()
        for rs in sorted(registry, key=lambda r: r.meta.short_name):
            self.ruleset.addItem(rs.meta.name, rs.id)
        if roster is not None:
            self.ruleset.setCurrentIndex(max(0, self.ruleset.findData(roster.ruleset)))
        self.side = QComboBox()
        #: each declared document's option controls, by document id and option name
        self.options: dict[str, dict[str, QComboBox | QCheckBox]] = {
            spec.id: {o.name: _option_widget(o) for o in spec.options} for spec in self.declared
        }
        self.page = QComboBox()
        self.page.addItem("A4", "a4")
        self.page.addItem("Letter", "letter")
        self.page.setCurrentIndex(max(0, self.page.findData(page_size)))
        self.path = QLineEdit()
        self.path.setObjectName("printPath")
        self.path.textEdited.connect(self._mark_edited)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.open_after = QCheckBox("Open the PDF when it is written")
        self.open_after.setChecked(True)
        self.to_printer = QRadioButton("To a &printer (the system's print dialog comes next)")
        self.to_printer.setObjectName("toPrinter")
        self.to_pdf = QRadioButton("To a PDF &file")
        self.to_pdf.setObjectName("toPdf")
        self.to_pdf.setChecked(True)
        destination = QVBoxLayout()
        destination.addWidget(self.to_pdf)
        destination.addWidget(self.to_printer)
        self.to_printer.toggled.connect(self._refresh)
        self.font_warning = QLabel()
        self.font_warning.setObjectName("printFontWarning")
        self.font_warning.setStyleSheet("color: #8a5a00")
        self.font_warning.setWordWrap(True)
        self.size_note = QLabel()
        self.size_note.setObjectName("printSize")
        self.size_note.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setObjectName("printProblem")
        self.problem.setStyleSheet("color: #b00020")
        self.problem.setWordWrap(True)

        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(browse)
        form = QFormLayout()
        form.addRow("&Document:", self.document)
        form.addRow("&Ruleset:", self.ruleset)
        form.addRow("&Side:", self.side)
        for spec in self.declared:
            for option in spec.options:
                widget = self.options[spec.id][option.name]
                form.addRow("" if option.flag else f"&{option.label}:", widget)
        form.addRow("&Paper:", self.page)
        form.addRow("Send:", destination)
        self._file_label = QLabel("File:")
        form.addRow(self._file_label, path_row)
        self._path_row = path_row
        form.addRow("", self.open_after)
        form.addRow("", self.size_note)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Write PDF")
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.font_warning)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self._form = form

        self.document.currentIndexChanged.connect(self._refresh)
        self.ruleset.currentIndexChanged.connect(self._refresh)
        self.document.setCurrentIndex(self.document.findData(document))
        self._refresh()
        self.resize(560, self.sizeHint().height())

    # ------------------------------------------------------------------ state

    def chosen_document(self) -> Printable:
        doc = self.document.currentData()
        assert isinstance(doc, Document | DocumentSpec)
        return doc

    def option_widget(self, name: str) -> QComboBox | QCheckBox:
        """The control of option ``name`` of the declared document chosen."""
        doc = self.chosen_document()
        assert isinstance(doc, DocumentSpec)
        return self.options[doc.id][name]

    def chosen_ruleset(self) -> Ruleset:
        return self.registry.get(str(self.ruleset.currentData()))

    def _mark_edited(self) -> None:
        self._path_edited = True

    def _show_row(self, field: QWidget, visible: bool) -> None:
        self._form.setRowVisible(field, visible)

    def _refresh(self) -> None:
        doc = self.chosen_document()
        rs = self.chosen_ruleset()
        needs_roster = doc in (Document.CARDS, Document.ROSTER)
        spec = doc if isinstance(doc, DocumentSpec) else None
        self.ruleset.setEnabled(not needs_roster or self.roster is None)
        if needs_roster and self.roster is not None:
            self.ruleset.setCurrentIndex(max(0, self.ruleset.findData(self.roster.ruleset)))
        if spec is not None:
            first = next((r for r in self.registry if declared_by(r.engine, spec.id)), None)
            if first is not None and not declared_by(rs.engine, spec.id):
                self.ruleset.setCurrentIndex(self.ruleset.findData(first.id))
                return  # _refresh runs again from the ruleset change
            self._fill_sides(rs, spec)
        self._show_row(self.side, spec is not None)
        for doc_id, widgets in self.options.items():
            for widget in widgets.values():
                self._show_row(widget, spec is not None and spec.id == doc_id)
        printer = self.to_printer.isChecked()
        self._form.setRowVisible(self._path_row, not printer)
        self._show_row(self.open_after, not printer)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Print…" if printer else "Write PDF")
        self.size_note.setText(self._size_text(doc))
        warning = None
        if needs_roster and self.roster is not None:
            from app.export.fonts import unprintable_warning

            warning = unprintable_warning(self.roster)
        self.font_warning.setText(f"⚠ {warning}." if warning else "")
        self.font_warning.setVisible(bool(warning))
        self._show_row(self.size_note, bool(self.size_note.text()))
        problem = ""
        if needs_roster and self.roster is None:
            problem = "Open a roster to print its cards or its roster sheet."
        elif spec is not None and not declared_by(rs.engine, spec.id):
            problem = f"None of the loaded rulesets has {spec.name}."
        self.problem.setText(problem)
        self.problem.setVisible(bool(problem))
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(not problem)
        if not self._path_edited:
            self.path.setText(str(Path(self._folder) / suggested_name(doc, rs, self.roster)))

    def _size_text(self, doc: Printable) -> str:
        if doc is not Document.CARDS or self.roster is None:
            return ""
        from app.export import card_count, card_grid

        cards = card_count(self.roster)
        pages = card_grid(str(self.page.currentData())).pages_for(cards)
        plural = ("s" if cards != 1 else "", "s" if pages != 1 else "")
        return f"{cards:,} card{plural[0]} on {pages:,} page{plural[1]}"

    def _fill_sides(self, rs: Ruleset, spec: DocumentSpec) -> None:
        current = self.side.currentData()
        self.side.clear()
        for army_id, army in rs.armies.items():
            self.side.addItem(f"{army.side} ({army.name})", army_id)
        if current is not None and self.side.findData(current) >= 0:
            self.side.setCurrentIndex(self.side.findData(current))
        elif self.roster is not None and self.roster.ruleset == rs.id:
            self.side.setCurrentIndex(max(0, self.side.findData(self.roster.army)))
            general = next((ld for ld in self.roster.leaders if ld.rank == "general"), None)
            for option in spec.options:
                value = None
                if general is not None and option.leader_field is not None:
                    value = getattr(general, option.leader_field, None)
                widget = self.options[spec.id][option.name]
                if value and isinstance(widget, QComboBox):
                    widget.setCurrentIndex(max(0, widget.findData(value)))

    def _browse(self) -> None:
        from app.gui.files import save_file_name

        chosen = save_file_name(self, "Write PDF", self.path.text(), "PDF documents (*.pdf)")
        if chosen is not None:
            path = str(chosen)
            self.path.setText(path if path.lower().endswith(".pdf") else f"{path}.pdf")
            self._path_edited = True

    def job(self) -> PrintJob:
        doc = self.chosen_document()
        spec = doc if isinstance(doc, DocumentSpec) else None
        side = self.side.currentData() if spec is not None else None
        options: dict[str, OptionValue] = {}
        if spec is not None:
            for name, widget in self.options[spec.id].items():
                if isinstance(widget, QCheckBox):
                    options[name] = widget.isChecked()
                else:
                    options[name] = str(widget.currentData())
        return PrintJob(
            document=doc,
            ruleset=self.chosen_ruleset().id,
            path=Path(self.path.text().strip()).expanduser(),
            page_size=str(self.page.currentData()),
            side=None if side is None else str(side),
            options=options,
            open_after=self.open_after.isChecked(),
            to_printer=self.to_printer.isChecked(),
        )

    def _accept(self) -> None:
        job = self.job()
        if job.to_printer:
            self.accept()
            return
        if not self.path.text().strip():
            self.problem.setText("Give a file name for the PDF.")
            self.problem.setVisible(True)
            return
        if not job.path.parent.is_dir():
            self.problem.setText(f"The folder {job.path.parent} does not exist.")
            self.problem.setVisible(True)
            return
        self.accept()


def _option_widget(option: DocumentOption) -> QComboBox | QCheckBox:
    """A check box for a flag; a list of the choices for a choice, its default first."""
    if option.flag:
        return QCheckBox(option.label)
    box = QComboBox()
    first = option.initial
    for choice in sorted(option.choices, key=lambda c: c != first):
        box.addItem(choice.capitalize(), choice)
    return box
