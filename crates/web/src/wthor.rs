//! WTHOR's Othello games found by player, tournament and year, as the page lists them.

use gamelab_othello::wthor_database::{Database, Query};
use gamelab_othello::{Move, transcript};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct WthorQuery {
    /// Part of either player's name, in any case.
    pub player: Option<String>,
    /// Part of the tournament's name, in any case.
    pub tournament: Option<String>,
    pub year: Option<u16>,
    #[serde(default)]
    pub offset: usize,
    pub limit: Option<usize>,
}

#[derive(Serialize, Debug)]
pub struct WthorGameView {
    /// The game's place in the database.
    pub id: usize,
    pub year: u16,
    pub tournament: String,
    pub black: String,
    pub white: String,
    /// Black's disc count at the end, as recorded.
    pub black_discs: u8,
    /// Black's disc count with perfect play from the file's depth on.
    pub black_theoretical: u8,
    /// The moves as a transcript (`f5d6c3…`, passes left out), which a new game reads.
    pub moves: String,
}

#[derive(Serialize, Debug)]
pub struct WthorPage {
    /// Games in the database.
    pub total: usize,
    /// Games the query matches.
    pub matching: usize,
    pub games: Vec<WthorGameView>,
}

/// Names longer than this are refused: no player or tournament name is nearly as long.
const MAX_NAME_LENGTH: usize = 100;

pub fn find(db: &Database, query: &WthorQuery) -> Result<WthorPage, ApiError> {
    let limit = query.limit.unwrap_or(50);
    if limit == 0 || limit > 500 {
        return Err(ApiError::bad_request(format!(
            "limit {limit} is out of range: ask for 1 to 500 games at a time"
        )));
    }
    let text = |part: &Option<String>, what: &str| -> Result<Option<String>, ApiError> {
        match part.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(p) if p.chars().count() > MAX_NAME_LENGTH => Err(ApiError::bad_request(format!(
                "{what} is longer than {MAX_NAME_LENGTH} characters"
            ))),
            Some(p) => Ok(Some(p.to_string())),
        }
    };
    let found = db.search(&Query {
        player: text(&query.player, "player")?,
        tournament: text(&query.tournament, "tournament")?,
        year: query.year,
    });
    let games = found
        .iter()
        .skip(query.offset)
        .take(limit)
        .map(|&id| {
            let g = db.game(id).expect("an index the search gave");
            let moves: Vec<Move> = g.game.moves.iter().map(|&sq| Move::Place(sq)).collect();
            WthorGameView {
                id,
                year: g.year,
                tournament: db.tournament(g.game.tournament),
                black: db.player(g.game.black_player),
                white: db.player(g.game.white_player),
                black_discs: g.game.black_discs,
                black_theoretical: g.game.black_theoretical,
                moves: transcript::write(&moves),
            }
        })
        .collect();
    Ok(WthorPage {
        total: db.len(),
        matching: found.len(),
        games,
    })
}
