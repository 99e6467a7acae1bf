//! The `mcts` search tree in one arena: every node in one `Vec`, children
//! as a linked list of indices, the untried actions of every decision
//! node as a range of one shared `Vec` — so growing the tree allocates
//! nothing once the arena has grown, and the same arena serves search
//! after search (it is cleared, not dropped). [`Tree::reroot`] keeps the
//! subtree below the moves and draws that were played, for the next
//! search of the same game.

use engine::{Action, Gift, Seat, Tile};

/// The index of a node in the search tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The root of every search.
    pub(super) const ROOT: NodeId = NodeId(0);
    /// No node (the end of a child list).
    const NONE: NodeId = NodeId(u32::MAX);

    pub(super) fn index(self) -> usize {
        self.0 as usize
    }
}

/// What leads to a node from its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key {
    /// The root (a decision node).
    Root,
    /// A move node: the action taken.
    Act(Action),
    /// A decision node after a tile draw: the (last) tile drawn.
    Tile(Tile),
    /// A node after a gift card was received: the card.
    Gift(Gift),
}

/// One node: its statistics and its links in the arena.
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub(super) key: Key,
    /// Move nodes: the seat that made the move (whose rewards `total` sums).
    pub(super) seat: Seat,
    pub(super) visits: u32,
    /// Move nodes under `ismcts`: how often the parent was visited with
    /// this action legal (availability; else unused).
    pub(super) avail: u32,
    /// Move nodes with progressive bias: `tanh(g / scale)` of the gain `g`
    /// in end-now advantage the move makes at once (else 0).
    pub(super) prior: f64,
    pub(super) total: f64,
    /// Decision nodes: the legal actions were listed into `untried`.
    pub(super) expanded: bool,
    /// How many children the node has.
    pub(super) child_count: u32,
    first_child: NodeId,
    last_child: NodeId,
    next_sibling: NodeId,
    /// The untried actions: `Tree::actions[untried_start..][..untried_len]`,
    /// the next to add last.
    untried_start: u32,
    untried_len: u32,
}

impl Node {
    fn new(key: Key, seat: Seat) -> Node {
        Node {
            key,
            seat,
            visits: 0,
            avail: 0,
            prior: 0.0,
            total: 0.0,
            expanded: false,
            child_count: 0,
            first_child: NodeId::NONE,
            last_child: NodeId::NONE,
            next_sibling: NodeId::NONE,
            untried_start: 0,
            untried_len: 0,
        }
    }
}

/// The arena: the nodes (the root first) and the untried actions.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    actions: Vec<Action>,
}

impl Tree {
    /// Forget every node, keeping the memory.
    pub(super) fn clear(&mut self) {
        self.nodes.clear();
        self.actions.clear();
    }

    /// Number of nodes.
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The tree holds no node (not even a root).
    pub(super) fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every node, in the order they were added.
    #[cfg(test)]
    pub(super) fn ids(&self) -> impl Iterator<Item = NodeId> + use<> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// Start an empty tree with a root for `seat` to decide at.
    pub(super) fn start(&mut self, seat: Seat) {
        self.clear();
        self.nodes.push(Node::new(Key::Root, seat));
    }

    pub(super) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    pub(super) fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// Append a child reached by `key` to `parent`'s children.
    pub(super) fn add_child(&mut self, parent: NodeId, key: Key, seat: Seat) -> NodeId {
        let id = NodeId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 nodes"));
        assert!(id != NodeId::NONE, "fewer than 2^32 - 1 nodes");
        self.nodes.push(Node::new(key, seat));
        let p = &mut self.nodes[parent.index()];
        let last = std::mem::replace(&mut p.last_child, id);
        p.child_count += 1;
        if last == NodeId::NONE {
            p.first_child = id;
        } else {
            self.nodes[last.index()].next_sibling = id;
        }
        id
    }

    /// The children of `id`, in the order they were added.
    pub(super) fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            tree: self,
            next: self.node(id).first_child,
        }
    }

    /// The first child of `id`.
    pub(super) fn first_child(&self, id: NodeId) -> Option<NodeId> {
        Some(self.node(id).first_child).filter(|&c| c != NodeId::NONE)
    }

    /// The child added after `id` to its parent.
    pub(super) fn next_sibling(&self, id: NodeId) -> Option<NodeId> {
        Some(self.node(id).next_sibling).filter(|&c| c != NodeId::NONE)
    }

    /// The child of `id` reached by `key`, if there is one.
    pub(super) fn child(&self, id: NodeId, key: Key) -> Option<NodeId> {
        self.children(id).find(|&c| self.node(c).key == key)
    }

    /// The untried actions of decision node `id`, the next to add last.
    pub(super) fn untried(&self, id: NodeId) -> &[Action] {
        let n = self.node(id);
        &self.actions[n.untried_start as usize..][..n.untried_len as usize]
    }

    /// Mark `id` expanded with `actions` as its untried actions (a new
    /// range at the end of the shared list; the old one, if any, is left
    /// unused until the arena is cleared).
    pub(super) fn set_untried(&mut self, id: NodeId, actions: impl IntoIterator<Item = Action>) {
        let start = self.actions.len();
        self.actions.extend(actions);
        let n = &mut self.nodes[id.index()];
        n.untried_start = u32::try_from(start).expect("fewer than 2^32 actions");
        n.untried_len = u32::try_from(self.actions.len() - start).expect("a short list");
        n.expanded = true;
    }

    /// Take untried action `i` of `id` out of its list: keeping the order
    /// of the others (`Vec::remove`) or moving the last into its place
    /// (`Vec::swap_remove`).
    pub(super) fn take_untried(&mut self, id: NodeId, i: usize, keep_order: bool) -> Action {
        let n = &mut self.nodes[id.index()];
        let list = &mut self.actions[n.untried_start as usize..][..n.untried_len as usize];
        let action = list[i];
        if keep_order {
            list[i..].rotate_left(1);
        } else {
            list.swap(i, list.len() - 1);
        }
        n.untried_len -= 1;
        action
    }

    /// Keep only the subtree reached from the root by `path` (a move of
    /// the root's seat, then the draws and moves that followed), made the
    /// new root, and return `true`; if the tree has no such node, clear it
    /// and return `false`. The subtree is copied, in the same order, into
    /// `spare`, which is then swapped in (so both arenas keep their
    /// memory).
    pub(super) fn reroot(&mut self, path: &[Key], spare: &mut Tree) -> bool {
        let found = if self.is_empty() {
            None
        } else {
            path.iter()
                .try_fold(NodeId::ROOT, |id, &key| self.child(id, key))
        };
        let Some(top) = found else {
            self.clear();
            return false;
        };
        spare.clear();
        spare.copy_node(self, top, Key::Root);
        // Breadth first; a node's children are appended in their order.
        let mut i = 0;
        let mut from = vec![top];
        while i < from.len() {
            let old = from[i];
            for c in self.children(old) {
                let new = spare.add_child(NodeId(i as u32), self.node(c).key, self.node(c).seat);
                spare.copy_stats(self, c, new);
                from.push(c);
            }
            i += 1;
        }
        std::mem::swap(self, spare);
        true
    }

    /// Push a copy of `other`'s node `id` (without its links) keyed `key`.
    fn copy_node(&mut self, other: &Tree, id: NodeId, key: Key) {
        self.nodes.push(Node::new(key, other.node(id).seat));
        let new = NodeId(self.nodes.len() as u32 - 1);
        self.copy_stats(other, id, new);
    }

    /// Give node `new` the statistics and untried actions of `other`'s `id`.
    fn copy_stats(&mut self, other: &Tree, id: NodeId, new: NodeId) {
        let o = other.node(id);
        if o.expanded {
            self.set_untried(new, other.untried(id).iter().copied());
        }
        let n = self.node_mut(new);
        (n.visits, n.avail, n.prior, n.total) = (o.visits, o.avail, o.prior, o.total);
    }
}

/// The children of a node, in order ([`Tree::children`]).
pub(super) struct Children<'t> {
    tree: &'t Tree,
    next: NodeId,
}

impl Iterator for Children<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        if self.next == NodeId::NONE {
            return None;
        }
        let id = self.next;
        self.next = self.tree.node(id).next_sibling;
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keep(t: Tile) -> Action {
        Action::Keep(t)
    }

    #[test]
    fn children_come_back_in_the_order_they_were_added() {
        let mut tree = Tree::default();
        tree.start(Seat(0));
        let a = tree.add_child(NodeId::ROOT, Key::Act(keep(Tile::A)), Seat(0));
        let b = tree.add_child(NodeId::ROOT, Key::Act(keep(Tile::B)), Seat(0));
        let c = tree.add_child(a, Key::Tile(Tile::C), Seat(1));
        assert_eq!(tree.children(NodeId::ROOT).collect::<Vec<_>>(), vec![a, b]);
        assert_eq!(tree.children(a).collect::<Vec<_>>(), vec![c]);
        assert_eq!(tree.node(NodeId::ROOT).child_count, 2);
        assert_eq!(tree.child(NodeId::ROOT, Key::Act(keep(Tile::B))), Some(b));
        assert_eq!(tree.child(b, Key::Tile(Tile::C)), None);
    }

    #[test]
    fn taking_untried_actions_matches_vec_remove_and_swap_remove() {
        let all = [Tile::A, Tile::B, Tile::C, Tile::D, Tile::E].map(keep);
        let mut tree = Tree::default();
        tree.start(Seat(0));
        let other = tree.add_child(NodeId::ROOT, Key::Tile(Tile::A), Seat(1));
        tree.set_untried(NodeId::ROOT, all);
        tree.set_untried(other, all);
        let mut ordered = all.to_vec();
        let mut swapped = all.to_vec();
        for i in [1, 2, 0] {
            assert_eq!(tree.take_untried(NodeId::ROOT, i, true), ordered.remove(i));
            assert_eq!(tree.take_untried(other, i, false), swapped.swap_remove(i));
            assert_eq!(tree.untried(NodeId::ROOT), ordered);
            assert_eq!(tree.untried(other), swapped);
        }
    }

    #[test]
    fn rerooting_keeps_the_subtree_of_the_path_with_its_statistics() {
        let mut tree = Tree::default();
        tree.start(Seat(0));
        let a = tree.add_child(NodeId::ROOT, Key::Act(keep(Tile::A)), Seat(0));
        tree.add_child(NodeId::ROOT, Key::Act(keep(Tile::B)), Seat(0));
        let d = tree.add_child(a, Key::Tile(Tile::D), Seat(1));
        let x = tree.add_child(d, Key::Act(keep(Tile::E)), Seat(1));
        let y = tree.add_child(d, Key::Act(keep(Tile::F)), Seat(1));
        tree.add_child(x, Key::Tile(Tile::G), Seat(0));
        tree.set_untried(d, [keep(Tile::H), keep(Tile::I)]);
        (tree.node_mut(y).visits, tree.node_mut(y).total) = (3, 1.5);
        tree.node_mut(d).visits = 7;
        let mut spare = Tree::default();
        let path = [Key::Act(keep(Tile::A)), Key::Tile(Tile::D)];
        assert!(tree.reroot(&path, &mut spare));
        assert_eq!(tree.len(), 4);
        let root = tree.node(NodeId::ROOT);
        assert_eq!((root.key, root.visits, root.seat), (Key::Root, 7, Seat(1)));
        assert_eq!(tree.untried(NodeId::ROOT), [keep(Tile::H), keep(Tile::I)]);
        let kids: Vec<_> = tree.children(NodeId::ROOT).collect();
        let keys: Vec<_> = kids.iter().map(|&c| tree.node(c).key).collect();
        assert_eq!(keys, [Key::Act(keep(Tile::E)), Key::Act(keep(Tile::F))]);
        assert_eq!(
            (tree.node(kids[1]).visits, tree.node(kids[1]).total),
            (3, 1.5)
        );
        assert_eq!(tree.children(kids[0]).count(), 1);
        // A path the tree does not hold leaves it empty.
        assert!(!tree.reroot(&[Key::Act(keep(Tile::B))], &mut spare));
        assert!(tree.is_empty());
    }
}
