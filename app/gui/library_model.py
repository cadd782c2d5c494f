"""The roster library's tree as a model over the roster list: ruleset > side > roster rows,
then a "Deleted (n)" group, two columns (the roster's name, its unit count).

The tree is a list of small nodes built from the store's roster list; Qt asks :meth:`data`
only for the rows it shows, so a store of 3,000 rosters costs no item objects and no search
texts at start-up. The model filters itself (the search box): a proxy model in between
would have Qt call back into Python for every row it maps, several times over, when the
tree is expanded. A roster's search text (name, army list, ruleset, side) is made when the
filter first asks for it and kept until the names change (:meth:`LibraryModel.renamed`). A
roster's tooltip is made when Qt asks for it, as the row is hovered (so it names the rulesets
loaded since the library was built)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

if TYPE_CHECKING:
    from app.usecases.roster import RosterSummary

ROSTER_ROLE = Qt.ItemDataRole.UserRole + 1
DELETED_ROLE = Qt.ItemDataRole.UserRole + 2
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 3
#: a ruleset group's ruleset id; a roster row's RosterSummary
RULESET_ROLE = Qt.ItemDataRole.UserRole + 4
SUMMARY_ROLE = Qt.ItemDataRole.UserRole + 5
DELETED_GROUP = "Deleted"
HEADERS = ("Roster", "Units")
BIN_TIP = "Deleted rosters: restore one, or delete it for good"
#: computed once: combining Qt flags costs an enum call, thousands of times in a big library
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_GROUP_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
#: a roster row has no children, and says so: laying out (and expanding) the tree then asks
#: nothing more of a roster row than its index and flags, where it asked Python whether it had
#: children, how many, and kept a persistent index for each expanded one
_LEAF_FLAGS = _GROUP_FLAGS | Qt.ItemFlag.ItemNeverHasChildren
_NAME_FLAGS = _LEAF_FLAGS | Qt.ItemFlag.ItemIsEditable
#: the roles as plain numbers: Qt asks ``data`` tens of thousands of times for a big library,
#: and comparing the number it passes with an enum member costs a microsecond each
_TEXT = frozenset({int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.EditRole)})
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)

Index = QModelIndex | QPersistentModelIndex


class Node:
    """A row of the tree: a ruleset group, a side group, the Deleted group or a roster.
    ``key`` is the node's place in :attr:`LibraryModel._nodes` (its indexes' internalId)."""

    __slots__ = ("children", "deleted", "key", "parent", "row", "ruleset", "summary", "text")

    def __init__(
        self,
        key: int,
        parent: Node | None,
        row: int,
        text: str,
        summary: RosterSummary | None = None,
        deleted: bool | None = None,
    ) -> None:
        self.key = key
        self.parent = parent
        self.row = row
        self.text = text
        self.children: list[Node] = []
        self.summary = summary
        self.ruleset: str | None = None
        #: None for a ruleset or side group (no such data), True for the Deleted group
        self.deleted = deleted


class LibraryModel(QAbstractItemModel):
    """The tree; ``name_of`` gives a ruleset's shown name, ``search_of`` a roster's search
    text, ``tooltip_of`` its tooltip. Renaming in place does not store the text: ``rename``
    is called (the window renames in the store or the open session, then refreshes)."""

    def __init__(
        self,
        parent: QObject,
        *,
        name_of: Callable[[str], str],
        search_of: Callable[[RosterSummary], str],
        tooltip_of: Callable[[RosterSummary], str],
        rename: Callable[[int, str], bool],
    ) -> None:
        super().__init__(parent)
        self._name_of = name_of
        self._search_of = search_of
        self._tooltip_of = tooltip_of
        self._rename = rename
        self._root = Node(-1, None, 0, "")
        self._nodes: list[Node] = []
        self._by_roster: dict[int, Node] = {}
        self._search: dict[int, str] = {}
        self._live: list[RosterSummary] = []
        self._dead: list[RosterSummary] = []
        self._filter = ""
        self._bold = QFont()
        self._bold.setBold(True)
        self._grey_brush: QBrush | None = None

    @property
    def _grey(self) -> QBrush:
        """The deleted rows' text colour, made when one is first shown (making a brush at
        start builds PySide6's gradient and image classes, 2 ms)."""
        if self._grey_brush is None:
            self._grey_brush = QBrush(QColor("#888888"))
        return self._grey_brush

    # ------------------------------------------------------------------ contents

    def set_rosters(self, live: list[RosterSummary], dead: list[RosterSummary]) -> Node | None:
        """Show ``live`` (sorted by ruleset, side and name) grouped by ruleset and side, and
        ``dead`` under the Deleted group (returned, or None when nothing is deleted), as far
        as the filter lets them through."""
        self._live, self._dead = live, dead
        self._search = {}
        return self._rebuild()

    def set_filter(self, text: str) -> Node | None:
        """Show only the rosters whose search text holds ``text`` (any case), with their
        groups; the whole library when ``text`` is empty. Returns the Deleted group."""
        self._filter = text.lower()
        return self._rebuild()

    def units_texts(self) -> set[str]:
        """Every text the Units column can show (each roster's unit count, in the bin too,
        whether the filter shows it or not): the column is sized from these, not by asking
        Qt to measure its rows."""
        return {str(s.units) for s in self._live} | {str(s.units) for s in self._dead}

    @property
    def filtering(self) -> bool:
        return bool(self._filter)

    def _shown(self, s: RosterSummary) -> bool:
        if not self._filter:
            return True
        text = self._search.get(s.id)
        if text is None:
            text = self._search[s.id] = self._search_of(s)
        return self._filter in text.lower()

    def _rebuild(self) -> Node | None:
        self.beginResetModel()
        self._root = Node(-1, None, 0, "")
        self._nodes = []
        self._by_roster = {}
        tops: dict[str, Node] = {}
        sides: dict[tuple[str, str], Node] = {}
        for s in self._live if not self._filter else filter(self._shown, self._live):
            side = sides.get((s.ruleset, s.side))
            if side is None:
                top = tops.get(s.ruleset)
                if top is None:
                    top = tops[s.ruleset] = self._add(self._root, "")
                    top.ruleset = s.ruleset
                side = sides[(s.ruleset, s.side)] = self._add(top, s.side)
            self._roster(side, s, deleted=False)
        bin_node = None
        dead = [s for s in self._dead if self._shown(s)]
        if dead:
            bin_node = self._add(self._root, f"{DELETED_GROUP} ({len(self._dead)})")
            bin_node.deleted = True
            for s in dead:
                self._roster(bin_node, s, deleted=True)
        self.endResetModel()
        return bin_node

    def _add(self, parent: Node, text: str) -> Node:
        siblings = parent.children
        node = Node(len(self._nodes), parent, len(siblings), text)
        siblings.append(node)
        self._nodes.append(node)
        return node

    def _roster(self, parent: Node, s: RosterSummary, *, deleted: bool) -> None:
        siblings = parent.children
        node = Node(len(self._nodes), parent, len(siblings), s.name, s, deleted)
        siblings.append(node)
        self._nodes.append(node)
        self._by_roster[s.id] = node

    def renamed(self) -> bool:
        """The rulesets' names changed (more rulesets loaded): the groups' names and the
        rosters' search texts are asked again. True when the rows shown were rebuilt (a
        filter is on, and may now let other rosters through)."""
        self._search = {}
        if self._filter:
            self._rebuild()
            return True
        self._changed(self._root)
        return False

    def _changed(self, node: Node) -> None:
        if node.children:
            parent = self._index_of(node)
            last = len(node.children) - 1
            self.dataChanged.emit(self.index(0, 0, parent), self.index(last, 1, parent))
            for child in node.children:
                if child.summary is None:
                    self._changed(child)

    def _index_of(self, node: Node, column: int = 0) -> QModelIndex:
        if node is self._root:
            return QModelIndex()
        return self.createIndex(node.row, column, node.key)

    def index_of_roster(self, roster_id: int) -> QModelIndex:
        """The roster's row, or an invalid index when it is not shown (filtered out)."""
        node = self._by_roster.get(roster_id)
        return QModelIndex() if node is None else self._index_of(node)

    def index_of_node(self, node: Node) -> QModelIndex:
        return self._index_of(node)

    def group_indexes(self, *, deleted: bool) -> list[QModelIndex]:
        """The rows of the ruleset and side groups (and of the Deleted group if ``deleted``),
        the rows that hold rosters."""
        return [
            self._index_of(node)
            for node in self._nodes
            if node.summary is None and (deleted or not node.deleted)
        ]

    def _node(self, index: Index) -> Node:
        return self._nodes[index.internalId()] if index.isValid() else self._root

    # ------------------------------------------------------------------ Qt's model

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        children = (self._nodes[parent.internalId()] if parent.isValid() else self._root).children
        if 0 <= row < len(children) and 0 <= column < 2:
            return self.createIndex(row, column, children[row].key)
        return QModelIndex()

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid():
            return QModelIndex()
        up = self._nodes[index.internalId()].parent
        return QModelIndex() if up is None else self._index_of(up)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(HEADERS)

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return self.rowCount(parent) > 0

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(HEADERS)
        ):
            return HEADERS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        node = self._nodes[index.internalId()]
        if node.summary is None:
            return _GROUP_FLAGS
        if index.column() == 0 and not node.deleted:
            return _NAME_FLAGS
        return _LEAF_FLAGS

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self._nodes[index.internalId()]
        s = node.summary
        if index.column() == 1:
            if s is None:
                return "" if role in _TEXT else None
            return self._units_cell(node, s, role)
        if role in _TEXT:
            if node.ruleset is not None:
                return self._name_of(node.ruleset)
            return node.text
        if s is None:
            return self._group_cell(node, role)
        if role == ROSTER_ROLE:
            return s.id
        if role == DELETED_ROLE:
            return node.deleted
        if role == SEARCH_ROLE:
            text = self._search.get(s.id)
            if text is None:
                text = self._search[s.id] = self._search_of(s)
            return text
        if role == SUMMARY_ROLE:
            return s
        if role == _FOREGROUND and node.deleted:
            return self._grey
        if role == _TOOLTIP:
            return self._tooltip_of(s)
        return None

    def _units_cell(self, node: Node, s: RosterSummary, role: int) -> Any:
        if role in _TEXT:
            return str(s.units)
        if role == _ALIGN:
            return _RIGHT
        if role == ROSTER_ROLE:
            return s.id
        if role == DELETED_ROLE:
            return node.deleted
        if role == _FOREGROUND and node.deleted:
            return self._grey
        if role == _TOOLTIP:
            return self._tooltip_of(s)
        return None

    def _group_cell(self, node: Node, role: int) -> Any:
        if role == _FONT:
            return self._bold
        if role == SEARCH_ROLE:
            return ""
        if role == RULESET_ROLE:
            return node.ruleset
        if role == DELETED_ROLE:
            return node.deleted
        if role == _TOOLTIP and node.deleted:
            return BIN_TIP
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        node = self._node(index)
        if role != Qt.ItemDataRole.EditRole or node.summary is None or index.column() != 0:
            return False
        return self._rename(node.summary.id, str(value))
