use super::super::tests::positions;
use super::*;
use crate::rules::piece::Kind;

#[test]
fn zaps_are_scored_as_the_picker_orders_them() {
    let side = Color::White;
    let piece = |c, k| Some(Piece::new(k, c, 0));
    let order = [
        zap_score(side, piece(Color::Black, Kind::King)),
        zap_score(side, piece(Color::Black, Kind::Pawn)),
        zap_score(side, None),
        zap_score(side, piece(Color::White, Kind::Pawn)),
        zap_score(side, piece(Color::White, Kind::King)),
    ];
    assert!(order.windows(2).all(|w| w[0] > w[1]), "{order:?}");
}

/// Each active index lies in its own group, and what the opponent's
/// laser zaps after the move and the beams after it are those of the
/// board with the move played.
#[test]
fn features_fall_in_their_groups_and_the_beams_after_are_the_played_ones() {
    let groups = [
        MOVE_TYPE, VICTIM, THREAT, FROM, TO, NEAR_ENEMY, NEAR_OWN, TURN, OPP_BEAM, OWN_BEAM,
        SWAPPED, BEAMS, COUNT,
    ];
    let mut moves = Vec::new();
    let mut traced = 0;
    for mut b in positions() {
        let pos = Position::new(&b);
        candidates(&b, &mut moves);
        for c in &moves {
            let f = pos.features(&b, c);
            for (i, &a) in f.active.iter().enumerate() {
                let a = usize::from(a);
                assert!((groups[i]..groups[i + 1]).contains(&a), "group {i}: {a}");
            }
            if c.victim.is_some_and(|(_, p)| p.is_king()) {
                continue;
            }
            traced += usize::from(c.touched & pos.guard != 0);
            let side = b.side();
            let undo = b.make(c.mv);
            let hit = laser::target(&b, b.side()).and_then(|s| b.piece_at(s));
            let (own, opp) = (laser::path(&b, side).0, laser::path(&b, side.opp()).0);
            let want = beams(own, opp, b.king(side), b.king(side.opp()));
            b.unmake(c.mv, undo);
            let threat = usize::from(f.active[2]) - THREAT;
            assert_eq!(threat % ZAPS, Zap::of(side, hit) as usize, "{:?}", c.mv);
            assert_eq!(threat / ZAPS, pos.threat as usize);
            assert_eq!(usize::from(f.active[11]) - BEAMS, want, "{:?}", c.mv);
        }
    }
    assert!(traced > 1000, "{traced} moves traced");
}
