//! What the picture shows and how: terrain, numbers, harbours, pieces in seat colours, the
//! robber and pirate, Cities & Knights' knights, walls, metropolises, merchant and barbarian
//! track, and (on request) the vertex and edge ids.

use std::collections::{BTreeSet, HashMap};

use catan_engine::{
    board::{HarbourKind, Terrain},
    view::BoardView,
    BuildingKind, CitiesKnightsView, EdgeId, HexCoord, Seat, Track, VertexId,
};

use super::{
    geometry::{self, Point, SIZE},
    svg::{Svg, Value},
};
use crate::views::game::GameResponse;

/// Seat colours, seat 0 first (the usual red, blue, white, orange, then green and brown for
/// the 5-6 player extension).
const SEAT_COLOURS: [&str; 6] = ["#d32f2f", "#1e63c4", "#f4f4f0", "#f57c00", "#2e8b3a", "#7b4a2e"];

const OUTLINE: &str = "#202020";

/// Room around the board, and below it for the legend and the barbarian track.
const MARGIN: f64 = 20.0;
const LINE: f64 = 18.0;

fn seat_colour(seat: Seat) -> &'static str {
    SEAT_COLOURS[seat.index() % SEAT_COLOURS.len()]
}

fn terrain_name(terrain: Terrain) -> &'static str {
    match terrain {
        Terrain::Forest => "forest",
        Terrain::Pasture => "pasture",
        Terrain::Fields => "fields",
        Terrain::Hills => "hills",
        Terrain::Mountains => "mountains",
        Terrain::Desert => "desert",
        Terrain::Jungle => "jungle",
        Terrain::Gold => "gold",
        Terrain::Sea => "sea",
        Terrain::Fog => "fog",
    }
}

fn terrain_colour(terrain: Terrain) -> &'static str {
    match terrain {
        Terrain::Forest => "#2f7d32",
        Terrain::Pasture => "#9ccc65",
        Terrain::Fields => "#f2cf47",
        Terrain::Hills => "#c2643a",
        Terrain::Mountains => "#8e949a",
        Terrain::Desert => "#e6d5a3",
        Terrain::Jungle => "#15603a",
        Terrain::Gold => "#e8b923",
        Terrain::Sea => "#3d7fc9",
        Terrain::Fog => "#aab2ba",
    }
}

fn harbour_text(kind: HarbourKind) -> (&'static str, Option<&'static str>) {
    match kind {
        HarbourKind::Generic3 => ("3:1", None),
        HarbourKind::Lumber2 => ("2:1", Some("lumber")),
        HarbourKind::Brick2 => ("2:1", Some("brick")),
        HarbourKind::Wool2 => ("2:1", Some("wool")),
        HarbourKind::Grain2 => ("2:1", Some("grain")),
        HarbourKind::Ore2 => ("2:1", Some("ore")),
    }
}

fn harbour_name(kind: HarbourKind) -> &'static str {
    match kind {
        HarbourKind::Generic3 => "generic3",
        HarbourKind::Lumber2 => "lumber2",
        HarbourKind::Brick2 => "brick2",
        HarbourKind::Wool2 => "wool2",
        HarbourKind::Grain2 => "grain2",
        HarbourKind::Ore2 => "ore2",
    }
}

fn track_name(track: Track) -> &'static str {
    match track {
        Track::Trade => "trade",
        Track::Politics => "politics",
        Track::Science => "science",
    }
}

fn track_colour(track: Track) -> &'static str {
    match track {
        Track::Trade => "#f4c20d",
        Track::Politics => "#1e88e5",
        Track::Science => "#43a047",
    }
}

/// Draws the board of `game` as the caller sees it; `labels` adds every vertex and edge id.
pub fn board_svg(game: &GameResponse, labels: bool) -> String {
    let Some(board) = &game.board else { return waiting(game) };
    let coords: Vec<HexCoord> = board.hexes.iter().map(|h| h.hex).collect();
    let (x0, y0, x1, y1) = geometry::bounds(coords.iter().copied()).unwrap_or((0.0, 0.0, 0.0, 0.0));
    let ck = game.cities_and_knights.as_ref();
    let footer = LINE * (game.players.len().div_ceil(3) as f64) + if ck.is_some() { 2.0 * LINE + 10.0 } else { 0.0 };
    let (left, top) = (x0 - MARGIN, y0 - MARGIN);
    let (width, height) = (x1 - x0 + 2.0 * MARGIN, y1 - y0 + 2.0 * MARGIN + footer);
    let mut svg = Svg::default();
    svg.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("viewBox", format!("{} {} {} {}", left.round(), top.round(), width.round(), height.round()).into()),
            ("width", width.round().into()),
            ("height", height.round().into()),
            ("class", "catan-board".into()),
            ("data-game", game.id.to_string().into()),
            ("data-version", game.version.into()),
            ("data-seq", game.version.into()),
            ("data-variant", game.variant.clone().into()),
            ("font-family", "sans-serif".into()),
        ],
    );
    svg.text("title", &[], &format!("Catan board of game {} after log entry {}", game.id, game.version));
    svg.empty(
        "rect",
        &[
            ("x", left.into()),
            ("y", top.into()),
            ("width", width.into()),
            ("height", height.into()),
            ("fill", "#f6f1e3".into()),
        ],
    );
    hexes(&mut svg, board);
    harbours(&mut svg, board);
    marked_vertices(&mut svg, board);
    if let Some(tribe) = &game.forgotten_tribe {
        gifts(&mut svg, tribe);
    }
    if let Some(cloth) = &game.cloth_for_catan {
        villages(&mut svg, cloth);
    }
    if let Some(pirates) = &game.pirate_islands {
        pirate_islands(&mut svg, pirates);
    }
    for road in &board.roads {
        road_piece(&mut svg, road.edge, road.seat);
    }
    for ship in &board.ships {
        ship_piece(&mut svg, "ship", ship.edge, Some(ship.seat));
    }
    if let Some(ck) = ck {
        for seat in &ck.seats {
            for wall in &seat.walls {
                wall_piece(&mut svg, *wall, seat.seat);
            }
        }
    }
    for building in &board.buildings {
        building_piece(&mut svg, building.vertex, building.seat, building.kind);
    }
    if let Some(ck) = ck {
        cities_and_knights(&mut svg, ck);
    }
    if let Some(hex) = board.robber {
        robber(&mut svg, hex);
    }
    // PIR-11: on The Pirate Islands the pirate is the fleet, drawn with its path above.
    if let Some(hex) = board.pirate.filter(|_| game.pirate_islands.is_none()) {
        let badges: Vec<Point> =
            harbour_spots(board).into_iter().filter(|(_, sea, _)| *sea == hex).map(|(_, _, spot)| spot).collect();
        pirate(&mut svg, hex, pirate_spot(geometry::centre(hex), &badges));
    }
    if labels {
        ids(&mut svg, board, game.options.seafarers);
    }
    let mut y = y1 + MARGIN + 4.0;
    if let Some(ck) = ck {
        barbarian_track(&mut svg, ck, x0, y);
        pieces_key(&mut svg, x0, y + LINE + 6.0);
        y += 2.0 * LINE + 10.0;
    }
    legend(&mut svg, game, x0, y);
    svg.finish()
}

/// An open game has no board yet.
fn waiting(game: &GameResponse) -> String {
    let mut svg = Svg::default();
    svg.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("viewBox", "0 0 320 60".into()),
            ("width", 320.0.into()),
            ("height", 60.0.into()),
            ("class", "catan-board".into()),
            ("data-game", game.id.to_string().into()),
            ("data-version", game.version.into()),
            ("data-seq", game.version.into()),
            ("data-variant", game.variant.clone().into()),
            ("font-family", "sans-serif".into()),
        ],
    );
    svg.text("title", &[], &format!("Catan game {}: not started", game.id));
    svg.text(
        "text",
        &[("x", 160.0.into()), ("y", 35.0.into()), ("text-anchor", "middle".into()), ("font-size", 14.0.into())],
        "The game has not started yet",
    );
    svg.finish()
}

fn hexes(svg: &mut Svg, board: &BoardView) {
    for (index, tile) in board.hexes.iter().enumerate() {
        let neutral = board.neutral.contains(&tile.hex);
        let class = match tile.terrain {
            Terrain::Fog => "hex fog",
            Terrain::Sea => "hex sea",
            _ if neutral => "hex neutral",
            _ => "hex",
        };
        let mut attrs: Vec<(&str, Value)> = vec![
            ("class", class.into()),
            ("data-hex", index.into()),
            ("data-coord", tile.hex.to_string().into()),
            ("data-terrain", terrain_name(tile.terrain).into()),
        ];
        if let Some(number) = tile.number {
            attrs.push(("data-number", number.into()));
        }
        svg.open("g", &attrs);
        let corners = geometry::corners(tile.hex).map(|p| (p.x, p.y));
        svg.empty(
            "polygon",
            &[
                ("points", Svg::points(corners)),
                ("fill", terrain_colour(tile.terrain).into()),
                ("stroke", "#5b4a2f".into()),
                ("stroke-width", 1.5.into()),
            ],
        );
        let c = geometry::centre(tile.hex);
        // SCN-3: nobody settles the tribe's land; it is drawn paler and hatched.
        if neutral {
            let inner = geometry::corners(tile.hex).map(|p| p.toward(c, 0.12)).map(|p| (p.x, p.y));
            svg.empty(
                "polygon",
                &[
                    ("points", Svg::points(inner)),
                    ("fill", "#ffffff".into()),
                    ("fill-opacity", 0.35.into()),
                    ("stroke", "#5b4a2f".into()),
                    ("stroke-dasharray", "4 3".into()),
                ],
            );
        }
        if tile.terrain == Terrain::Fog {
            svg.text(
                "text",
                &[
                    ("x", c.x.into()),
                    ("y", (c.y + 8.0).into()),
                    ("text-anchor", "middle".into()),
                    ("font-size", 24.0.into()),
                    ("fill", "#f4f4f4".into()),
                ],
                "?",
            );
        }
        if let Some(number) = tile.number {
            token(svg, c, number);
        }
        svg.close();
    }
}

/// A number token: 6 and 8 in red; dots for how often the number is rolled.
fn token(svg: &mut Svg, c: Point, number: u8) {
    let hot = number == 6 || number == 8;
    let ink = if hot { "#c62828" } else { "#222222" };
    let class = if hot { "token hot" } else { "token" };
    svg.disc((c.x, c.y), SIZE * 0.34, "#f7ecd0", Some("#6b5a3a"), &[("class", class.into())]);
    let mut text: Vec<(&str, Value)> = vec![
        ("x", c.x.into()),
        ("y", (c.y + 4.0).into()),
        ("text-anchor", "middle".into()),
        ("font-size", 13.0.into()),
        ("fill", ink.into()),
    ];
    if hot {
        text.push(("font-weight", "bold".into()));
    }
    svg.text("text", &text, &number.to_string());
    let pips = 6 - (7 - i32::from(number)).abs();
    for i in 0..pips {
        let x = c.x + (f64::from(i) - f64::from(pips - 1) / 2.0) * 3.0;
        svg.disc((x, c.y + 8.5), 1.0, ink, None, &[]);
    }
}

/// The radius of a harbour's badge, and how far into the sea it sits (of the way from the
/// edge's middle to the sea hex's centre).
const BADGE: f64 = 16.0;
const BADGE_SEAWARD: f64 = 0.5;

/// Each harbour with its sea hex and the centre of its badge.
fn harbour_spots(board: &BoardView) -> Vec<(&catan_engine::view::HarbourView, HexCoord, Point)> {
    let land: HashMap<HexCoord, Terrain> =
        board.hexes.iter().filter(|h| h.terrain != Terrain::Sea).map(|h| (h.hex, h.terrain)).collect();
    board
        .harbours
        .iter()
        .map(|harbour| {
            let [a, b] = harbour.edge.hexes();
            let sea = if land.contains_key(&a) && !land.contains_key(&b) { b } else { a };
            let spot = geometry::edge_middle(harbour.edge).toward(geometry::centre(sea), BADGE_SEAWARD);
            (harbour, sea, spot)
        })
        .collect()
}

fn harbours(svg: &mut Svg, board: &BoardView) {
    for (harbour, _, spot) in harbour_spots(board) {
        svg.open(
            "g",
            &[
                ("class", "harbour".into()),
                ("data-edge", harbour.edge.to_string().into()),
                ("data-kind", harbour_name(harbour.kind).into()),
            ],
        );
        for end in geometry::edge_ends(harbour.edge) {
            let pier = end.toward(spot, 0.25);
            svg.empty(
                "line",
                &[
                    ("x1", pier.x.into()),
                    ("y1", pier.y.into()),
                    ("x2", spot.x.into()),
                    ("y2", spot.y.into()),
                    ("stroke", "#8a6a3c".into()),
                    ("stroke-width", 3.0.into()),
                ],
            );
        }
        svg.disc((spot.x, spot.y), BADGE, "#fdf7e6", Some("#8a6a3c"), &[]);
        // Big enough to read where the page scales a Seafarers map down (issue 30: the
        // resource's name was about 6 px there; The Forgotten Tribe's wide map needs 11).
        let (rate, resource) = harbour_text(harbour.kind);
        let rate_y = if resource.is_some() { spot.y - 1.5 } else { spot.y + 4.0 };
        svg.text(
            "text",
            &[
                ("class", "harbour-rate".into()),
                ("x", spot.x.into()),
                ("y", rate_y.into()),
                ("text-anchor", "middle".into()),
                ("font-size", 12.0.into()),
                ("font-weight", "bold".into()),
            ],
            rate,
        );
        if let Some(resource) = resource {
            svg.text(
                "text",
                &[
                    ("class", "harbour-resource".into()),
                    ("x", spot.x.into()),
                    ("y", (spot.y + 9.0).into()),
                    ("text-anchor", "middle".into()),
                    ("font-size", 11.0.into()),
                ],
                resource,
            );
        }
        svg.close();
    }
}

/// Bold text centred on `x` with its baseline at `y`: the label on a gift, a village, the
/// fleet or a fortress; `extra` adds a fill or an outline.
fn centred_label(svg: &mut Svg, (x, y): (f64, f64), size: f64, extra: &[(&str, Value)], text: &str) {
    let mut attrs: Vec<(&str, Value)> = vec![
        ("x", x.into()),
        ("y", y.into()),
        ("text-anchor", "middle".into()),
        ("font-size", size.into()),
        ("font-weight", "bold".into()),
    ];
    attrs.extend(extra.iter().cloned());
    svg.text("text", &attrs, text);
}

/// The tribe's gifts still on their edges (FTR-7): a gold badge on the edge, "VP" for a
/// point, "card" for a development card; a harbour gift is the harbour drawn there, ringed.
fn gifts(svg: &mut Svg, tribe: &catan_engine::view::TribeView) {
    for gift in &tribe.gifts {
        let at = geometry::edge_middle(gift.edge);
        let name = serde_json::to_value(gift.gift).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
        svg.open(
            "g",
            &[("class", "gift".into()), ("data-edge", gift.edge.to_string().into()), ("data-gift", name.into())],
        );
        let label = match gift.gift {
            catan_engine::Gift::VictoryPoint => Some("VP"),
            catan_engine::Gift::DevelopmentCard => Some("card"),
            catan_engine::Gift::Harbour => None,
        };
        let (r, fill) = if label.is_some() { (9.0, "#f2c94c") } else { (6.0, "none") };
        svg.disc((at.x, at.y), r, fill, Some("#7a5b00"), &[("stroke-width", 1.5.into())]);
        if let Some(label) = label {
            centred_label(svg, (at.x, at.y + 3.5), if label.len() > 2 { 7.0 } else { 9.0 }, &[], label);
        }
        svg.close();
    }
}

/// The Pirate Islands (PIR-7, PIR-11, PIR-4): each seat's ship lane as a dotted line in its
/// colour, the fleet's path as a dashed loop through its hexes with the fleet on its hex, and
/// each fortress as a square in its owner's colour with its strength (a conquered one is its
/// owner's settlement, drawn with the buildings).
fn pirate_islands(svg: &mut Svg, pirates: &catan_engine::PirateIslandsView) {
    for seat in &pirates.seats {
        svg.open("g", &[("class", "lane".into()), ("data-seat", seat.seat.0.into())]);
        for &edge in &seat.lane {
            let [a, b] = geometry::edge_ends(edge);
            svg.empty(
                "line",
                &[
                    ("x1", a.x.into()),
                    ("y1", a.y.into()),
                    ("x2", b.x.into()),
                    ("y2", b.y.into()),
                    ("stroke", seat_colour(seat.seat).into()),
                    ("stroke-width", 2.0.into()),
                    ("stroke-dasharray", "2 4".into()),
                    ("opacity", 0.8.into()),
                ],
            );
        }
        svg.close();
    }
    if !pirates.fleet_defeated {
        let points: Vec<String> = pirates
            .fleet_path
            .iter()
            .map(|&hex| {
                let c = geometry::centre(hex);
                format!("{:.1},{:.1}", c.x, c.y)
            })
            .collect();
        svg.empty(
            "polygon",
            &[
                ("class", "fleet-path".into()),
                ("points", points.join(" ").into()),
                ("fill", "none".into()),
                ("stroke", "#222".into()),
                ("stroke-width", 1.5.into()),
                ("stroke-dasharray", "6 5".into()),
                ("opacity", 0.5.into()),
            ],
        );
    }
    if let Some(hex) = pirates.fleet_hex {
        let c = geometry::centre(hex);
        svg.open("g", &[("class", "fleet".into()), ("data-coord", hex.to_string().into())]);
        svg.disc((c.x, c.y), 14.0, "#1b1b1b", None, &[]);
        centred_label(svg, (c.x, c.y + 4.0), 10.0, &[("fill", "#fff".into())], "fleet");
        svg.close();
    }
    for seat in pirates.seats.iter().filter(|s| s.fortress_strength > 0) {
        let at = geometry::vertex(seat.fortress);
        svg.open(
            "g",
            &[
                ("class", "fortress".into()),
                ("data-seat", seat.seat.0.into()),
                ("data-vertex", seat.fortress.to_string().into()),
                ("data-strength", seat.fortress_strength.into()),
            ],
        );
        svg.empty(
            "rect",
            &[
                ("x", (at.x - 9.0).into()),
                ("y", (at.y - 9.0).into()),
                ("width", 18.0.into()),
                ("height", 18.0.into()),
                ("fill", seat_colour(seat.seat).into()),
                ("stroke", "#111".into()),
                ("stroke-width", 2.0.into()),
            ],
        );
        let outlined = [("stroke", "#fff".into()), ("stroke-width", 0.6.into())];
        centred_label(svg, (at.x, at.y + 4.0), 11.0, &outlined, &seat.fortress_strength.to_string());
        svg.close();
    }
}

/// Cloth for Catan's villages (CLV-5): a white disc on the vertex with the village's number,
/// its cloth left beside it as "n cloth", and a dot in each connected seat's colour below.
fn villages(svg: &mut Svg, cloth: &catan_engine::view::ClothView) {
    for village in &cloth.villages {
        let at = geometry::vertex(village.vertex);
        svg.open(
            "g",
            &[
                ("class", "village".into()),
                ("data-vertex", village.vertex.to_string().into()),
                ("data-cloth", village.cloth.into()),
            ],
        );
        let fill = if village.cloth > 0 { "#fffdf5" } else { "#d9d4c7" };
        svg.disc((at.x, at.y), 10.0, fill, Some("#5b3b1a"), &[("stroke-width", 2.0.into())]);
        centred_label(svg, (at.x, at.y + 4.0), 11.0, &[], &village.number.to_string());
        svg.text(
            "text",
            &[
                ("x", (at.x + 13.0).into()),
                ("y", (at.y + 4.0).into()),
                ("font-size", 9.0.into()),
                ("class", "village-cloth".into()),
            ],
            &format!("{} cloth", village.cloth),
        );
        for (i, seat) in village.connected.iter().enumerate() {
            svg.disc(
                (at.x - 9.0 + 6.0 * i as f64, at.y + 15.0),
                3.0,
                seat_colour(*seat),
                Some("#333"),
                &[("stroke-width", 0.5.into()), ("class", "village-trader".into()), ("data-seat", seat.0.into())],
            );
        }
        svg.close();
    }
}

fn marked_vertices(svg: &mut Svg, board: &BoardView) {
    for marked in &board.marked_vertices {
        let set = serde_json::to_value(marked.set).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
        for vertex in &marked.vertices {
            let p = geometry::vertex(*vertex);
            svg.disc(
                (p.x, p.y),
                6.0,
                "none",
                Some("#6a1b9a"),
                &[
                    ("stroke-width", 2.0.into()),
                    ("stroke-dasharray", "2 2".into()),
                    ("class", "marked-vertex".into()),
                    ("data-set", set.clone().into()),
                    ("data-vertex", vertex.to_string().into()),
                ],
            );
        }
    }
}

fn road_piece(svg: &mut Svg, edge: EdgeId, seat: Seat) {
    let [a, b] = geometry::edge_ends(edge);
    let (a, b) = (a.toward(b, 0.18), b.toward(a, 0.18));
    svg.open("g", &[("class", "road".into()), ("data-seat", seat.0.into()), ("data-edge", edge.to_string().into())]);
    for (colour, width) in [(OUTLINE, 8.0), (seat_colour(seat), 5.5)] {
        svg.empty(
            "line",
            &[
                ("x1", a.x.into()),
                ("y1", a.y.into()),
                ("x2", b.x.into()),
                ("y2", b.y.into()),
                ("stroke", colour.into()),
                ("stroke-width", width.into()),
                ("stroke-linecap", "round".into()),
            ],
        );
    }
    svg.close();
}

/// A boat along an edge (a ship) or on a hex centre (the pirate, unowned and black).
fn ship_piece(svg: &mut Svg, class: &str, edge: EdgeId, seat: Option<Seat>) {
    let at = geometry::edge_middle(edge);
    let mut attrs: Vec<(&str, Value)> = vec![("class", class.into())];
    if let Some(seat) = seat {
        attrs.push(("data-seat", seat.0.into()));
    }
    attrs.push(("data-edge", edge.to_string().into()));
    attrs.push((
        "transform",
        format!("translate({:.1} {:.1}) rotate({:.1})", at.x, at.y, geometry::edge_angle(edge)).into(),
    ));
    svg.open("g", &attrs);
    boat(svg, seat.map_or("#111111", seat_colour));
    svg.close();
}

fn boat(svg: &mut Svg, colour: &str) {
    svg.empty(
        "polygon",
        &[
            ("points", Svg::points([(-13.0, -1.0), (13.0, -1.0), (8.0, 6.0), (-8.0, 6.0)])),
            ("fill", colour.into()),
            ("stroke", OUTLINE.into()),
        ],
    );
    svg.empty(
        "polygon",
        &[
            ("points", Svg::points([(0.0, -13.0), (0.0, -2.0), (9.0, -2.0)])),
            ("fill", colour.into()),
            ("stroke", OUTLINE.into()),
        ],
    );
}

fn building_piece(svg: &mut Svg, vertex: VertexId, seat: Seat, kind: BuildingKind) {
    let p = geometry::vertex(vertex);
    let (class, shape): (&str, &[(f64, f64)]) = match kind {
        BuildingKind::Settlement => ("settlement", &[(-7.0, 7.0), (7.0, 7.0), (7.0, -2.0), (0.0, -9.0), (-7.0, -2.0)]),
        BuildingKind::City => {
            ("city", &[(-11.0, 9.0), (11.0, 9.0), (11.0, -2.0), (1.0, -2.0), (1.0, -7.0), (-5.0, -13.0), (-11.0, -7.0)])
        }
    };
    svg.empty(
        "polygon",
        &[
            ("class", class.into()),
            ("data-seat", seat.0.into()),
            ("data-vertex", vertex.to_string().into()),
            ("points", Svg::points(shape.iter().map(|(x, y)| (p.x + x, p.y + y)))),
            ("fill", seat_colour(seat).into()),
            ("stroke", OUTLINE.into()),
            ("stroke-width", 1.5.into()),
        ],
    );
}

fn wall_piece(svg: &mut Svg, vertex: VertexId, seat: Seat) {
    let p = geometry::vertex(vertex);
    svg.empty(
        "rect",
        &[
            ("class", "wall".into()),
            ("data-seat", seat.0.into()),
            ("data-vertex", vertex.to_string().into()),
            ("x", (p.x - 15.0).into()),
            ("y", (p.y - 15.0).into()),
            ("width", 30.0.into()),
            ("height", 27.0.into()),
            ("rx", 3.0.into()),
            ("fill", "#7a7a7a".into()),
            ("stroke", seat_colour(seat).into()),
            ("stroke-width", 3.0.into()),
        ],
    );
}

fn cities_and_knights(svg: &mut Svg, ck: &CitiesKnightsView) {
    for seat in &ck.seats {
        for metropolis in &seat.metropolises {
            let p = geometry::vertex(metropolis.vertex);
            svg.empty(
                "polygon",
                &[
                    ("class", "metropolis".into()),
                    ("data-seat", metropolis.seat.0.into()),
                    ("data-vertex", metropolis.vertex.to_string().into()),
                    ("data-track", track_name(metropolis.track).into()),
                    ("points", Svg::points([(p.x - 5.0, p.y - 13.0), (p.x, p.y - 22.0), (p.x + 5.0, p.y - 13.0)])),
                    ("fill", track_colour(metropolis.track).into()),
                    ("stroke", OUTLINE.into()),
                ],
            );
        }
        for knight in &seat.knights {
            let p = geometry::vertex(knight.vertex);
            let colour = seat_colour(knight.seat);
            svg.open(
                "g",
                &[
                    ("class", "knight".into()),
                    ("data-seat", knight.seat.0.into()),
                    ("data-vertex", knight.vertex.to_string().into()),
                    ("data-rank", knight.rank.into()),
                    ("data-active", knight.active.into()),
                ],
            );
            // Active knights are filled with their colour, inactive ones only ringed by it.
            let (fill, stroke) = if knight.active { (colour, OUTLINE) } else { ("#ffffff", colour) };
            svg.disc((p.x, p.y), 10.0, fill, Some(stroke), &[("stroke-width", 2.5.into())]);
            let ink = if knight.active && knight.seat.0 != 2 { "#ffffff" } else { OUTLINE };
            svg.text(
                "text",
                &[
                    ("x", p.x.into()),
                    ("y", (p.y + 4.0).into()),
                    ("text-anchor", "middle".into()),
                    ("font-size", 10.0.into()),
                    ("font-weight", "bold".into()),
                    ("fill", ink.into()),
                ],
                ["I", "II", "III"].get(usize::from(knight.rank.saturating_sub(1))).copied().unwrap_or("?"),
            );
            svg.close();
        }
    }
    if let Some(merchant) = ck.merchant {
        let c = geometry::centre(merchant.hex);
        let (x, y) = (c.x + 17.0, c.y - 4.0);
        svg.empty(
            "polygon",
            &[
                ("class", "merchant".into()),
                ("data-seat", merchant.seat.0.into()),
                ("data-coord", merchant.hex.to_string().into()),
                ("points", Svg::points([(x - 6.0, y + 10.0), (x + 6.0, y + 10.0), (x, y - 8.0)])),
                ("fill", seat_colour(merchant.seat).into()),
                ("stroke", OUTLINE.into()),
            ],
        );
    }
}

fn robber(svg: &mut Svg, hex: HexCoord) {
    let c = geometry::centre(hex);
    let (x, y) = (c.x - 19.0, c.y);
    svg.open("g", &[("class", "robber".into()), ("data-coord", hex.to_string().into())]);
    svg.empty(
        "ellipse",
        &[
            ("cx", x.into()),
            ("cy", (y + 4.0).into()),
            ("rx", 6.0.into()),
            ("ry", 9.0.into()),
            ("fill", "#3b3b3b".into()),
            ("stroke", "#111111".into()),
        ],
    );
    svg.disc((x, y - 8.0), 4.5, "#3b3b3b", Some("#111111"), &[]);
    svg.close();
}

/// The pirate's boat: its anchor is `translate`d to, the boat spans 13 to each side, 13 up
/// and 6 down from it; [`PIRATE_REACH`] from [`PIRATE_MIDDLE`] covers it.
const PIRATE_MIDDLE: f64 = -3.5;
const PIRATE_REACH: f64 = 16.0;

/// Where the pirate's boat is anchored in its hex (centre `c`): below the centre, unless
/// that covers a harbour badge of the hex (`badges`, their centres); then the spot of the
/// hex farthest from every badge (issue 30: the pirate hid a harbour's rate).
fn pirate_spot(c: Point, badges: &[Point]) -> Point {
    let clearance = |anchor: Point| {
        let middle = Point { x: anchor.x, y: anchor.y + PIRATE_MIDDLE };
        badges.iter().map(|b| b.distance(middle) - BADGE - PIRATE_REACH).fold(f64::INFINITY, f64::min)
    };
    let below = Point { x: c.x, y: c.y + 12.0 };
    if clearance(below) >= 0.0 {
        return below;
    }
    (0..12)
        .map(|step| {
            let (sin, cos) = (f64::from(step) * 30.0).to_radians().sin_cos();
            Point { x: c.x + 15.0 * cos, y: c.y - PIRATE_MIDDLE + 15.0 * sin }
        })
        .max_by(|a, b| clearance(*a).total_cmp(&clearance(*b)))
        .unwrap_or(below)
}

fn pirate(svg: &mut Svg, hex: HexCoord, at: Point) {
    svg.open(
        "g",
        &[
            ("class", "pirate".into()),
            ("data-coord", hex.to_string().into()),
            ("transform", format!("translate({:.1} {:.1})", at.x, at.y).into()),
        ],
    );
    boat(svg, "#111111");
    svg.close();
}

/// Every vertex and edge id of the land (and, with Seafarers, of the sea a ship may sail).
fn ids(svg: &mut Svg, board: &BoardView, seafarers: bool) {
    let land: BTreeSet<HexCoord> = board.hexes.iter().filter(|h| h.terrain != Terrain::Sea).map(|h| h.hex).collect();
    let all: BTreeSet<HexCoord> = board.hexes.iter().map(|h| h.hex).collect();
    let vertices: BTreeSet<VertexId> = board
        .hexes
        .iter()
        .flat_map(|h| h.hex.corners())
        .filter(|v| {
            v.hexes().iter().any(|h| land.contains(h)) || seafarers && v.hexes().iter().all(|h| all.contains(h))
        })
        .collect();
    let edges: BTreeSet<EdgeId> = board
        .hexes
        .iter()
        .flat_map(|h| h.hex.sides())
        .filter(|e| {
            e.hexes().iter().any(|h| land.contains(h)) || seafarers && e.hexes().iter().all(|h| all.contains(h))
        })
        .collect();
    svg.open("g", &[("class", "labels".into()), ("font-size", 5.0.into()), ("text-anchor", "middle".into())]);
    for edge in edges {
        let p = geometry::edge_middle(edge);
        svg.text(
            "text",
            &[
                ("class", "edge-label".into()),
                ("data-edge", edge.to_string().into()),
                ("x", p.x.into()),
                ("y", (p.y + 1.5).into()),
                ("fill", "#3a2a10".into()),
                ("stroke", "#ffffff".into()),
                ("stroke-width", 1.5.into()),
                ("paint-order", "stroke".into()),
            ],
            &edge.to_string(),
        );
    }
    for vertex in vertices {
        let p = geometry::vertex(vertex);
        svg.text(
            "text",
            &[
                ("class", "vertex-label".into()),
                ("data-vertex", vertex.to_string().into()),
                ("x", p.x.into()),
                ("y", (p.y + 1.5).into()),
                ("fill", "#000000".into()),
                ("font-weight", "bold".into()),
                ("stroke", "#ffff99".into()),
                ("stroke-width", 2.0.into()),
                ("paint-order", "stroke".into()),
            ],
            &vertex.to_string(),
        );
    }
    svg.close();
}

/// The barbarian ship's way to Catan: one circle per step, the ship on its step.
fn barbarian_track(svg: &mut Svg, ck: &CitiesKnightsView, x: f64, y: f64) {
    svg.open(
        "g",
        &[
            ("class", "barbarians".into()),
            ("data-position", ck.barbarians.into()),
            ("data-steps", ck.barbarian_steps.into()),
            ("data-attacks", i64::from(ck.attacks).into()),
        ],
    );
    svg.text(
        "text",
        &[("x", x.into()), ("y", (y + 12.0).into()), ("font-size", 11.0.into())],
        &format!("Barbarians ({} attack{})", ck.attacks, if ck.attacks == 1 { "" } else { "s" }),
    );
    let start = x + 125.0;
    for step in 0..=ck.barbarian_steps {
        let cx = start + f64::from(step) * 22.0;
        let last = step == ck.barbarian_steps;
        svg.disc((cx, y + 8.0), 8.0, if last { "#b71c1c" } else { "#d9ccb0" }, Some("#5b4a2f"), &[]);
        if step == ck.barbarians {
            svg.open(
                "g",
                &[
                    ("class", "barbarian-ship".into()),
                    ("transform", format!("translate({cx:.1} {:.1}) scale(0.6)", y + 10.0).into()),
                ],
            );
            boat(svg, "#000000");
            svg.close();
        }
    }
    svg.close();
}

/// What Cities & Knights' two triangles are (issue 30): a metropolis above a city in its
/// track's colour, the merchant beside a hex in its owner's colour.
fn pieces_key(svg: &mut Svg, x: f64, y: f64) {
    svg.open("g", &[("class", "pieces-key".into()), ("font-size", 11.0.into())]);
    let mut px = x;
    for track in [Track::Trade, Track::Politics, Track::Science] {
        svg.empty(
            "polygon",
            &[
                ("data-key", "metropolis".into()),
                ("data-track", track_name(track).into()),
                ("points", Svg::points([(px, y + 12.0), (px + 5.0, y + 3.0), (px + 10.0, y + 12.0)])),
                ("fill", track_colour(track).into()),
                ("stroke", OUTLINE.into()),
            ],
        );
        px += 12.0;
    }
    svg.text("text", &[("x", (px + 2.0).into()), ("y", (y + 11.0).into())], "metropolis (trade, politics, science)");
    px += 215.0;
    svg.empty(
        "polygon",
        &[
            ("data-key", "merchant".into()),
            ("points", Svg::points([(px, y + 13.0), (px + 10.0, y + 13.0), (px + 5.0, y - 1.0)])),
            ("fill", "#ffffff".into()),
            ("stroke", OUTLINE.into()),
        ],
    );
    svg.text("text", &[("x", (px + 14.0).into()), ("y", (y + 11.0).into())], "merchant (its owner's colour)");
    svg.close();
}

/// Who plays which colour, with their public victory points.
fn legend(svg: &mut Svg, game: &GameResponse, x: f64, y: f64) {
    svg.open("g", &[("class", "legend".into()), ("font-size", 11.0.into())]);
    for (i, player) in game.players.iter().enumerate() {
        let (col, row) = (i % 3, i / 3);
        let (px, py) = (x + col as f64 * 150.0, y + row as f64 * LINE);
        svg.empty(
            "rect",
            &[
                ("x", px.into()),
                ("y", py.into()),
                ("width", 12.0.into()),
                ("height", 12.0.into()),
                ("fill", seat_colour(player.seat).into()),
                ("stroke", OUTLINE.into()),
            ],
        );
        let name = player
            .username
            .clone()
            .or_else(|| player.imported_name.clone())
            .or_else(|| player.bot.as_ref().map(|b| format!("{b} bot")))
            .unwrap_or_default();
        let points = player.victory_points.map(|vp| format!(" ({vp} VP)")).unwrap_or_default();
        // FTR-12: gift harbours a player holds until a spot opens.
        let held: Vec<&str> = game
            .forgotten_tribe
            .iter()
            .flat_map(|t| &t.pending_harbours)
            .filter(|h| h.seat == player.seat)
            .map(|h| harbour_name(h.kind))
            .collect();
        let held = if held.is_empty() { String::new() } else { format!(", holds {}", held.join(" ")) };
        // CLV-9: each seat's cloth.
        let cloth = game
            .cloth_for_catan
            .as_ref()
            .and_then(|c| c.cloth.get(player.seat.index()))
            .map(|n| format!(", {n} cloth"))
            .unwrap_or_default();
        // PIR-15: each seat's warships.
        let warships = game
            .pirate_islands
            .as_ref()
            .and_then(|p| p.seats.iter().find(|s| s.seat == player.seat))
            .map(|s| format!(", {} warships", s.warships.len()))
            .unwrap_or_default();
        let held = format!("{held}{cloth}{warships}");
        svg.text(
            "text",
            &[("x", (px + 17.0).into()), ("y", (py + 10.5).into()), ("data-seat", player.seat.0.into())],
            &format!("{}: {name}{points}{held}", player.seat.0),
        );
    }
    svg.close();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 30: the pirate was drawn over a harbour's badge. Wherever the badges of its hex
    /// are (one on any side, or two on any two sides), the boat covers none of them and stays
    /// inside the hex.
    #[test]
    fn the_pirate_covers_no_harbour_badge_of_its_hex() {
        let hex = HexCoord::new(1, -2);
        let c = geometry::centre(hex);
        let badges: Vec<Point> =
            hex.sides().iter().map(|side| geometry::edge_middle(*side).toward(c, BADGE_SEAWARD)).collect();
        let mut layouts: Vec<Vec<Point>> = vec![vec![]];
        for (i, a) in badges.iter().enumerate() {
            layouts.push(vec![*a]);
            for b in &badges[i + 1..] {
                layouts.push(vec![*a, *b]);
            }
        }
        for layout in layouts {
            let anchor = pirate_spot(c, &layout);
            let middle = Point { x: anchor.x, y: anchor.y + PIRATE_MIDDLE };
            for badge in &layout {
                // Two badges (on opposite sides, say) leave less room: the boat may touch
                // their rims, never reach their text.
                let room = if layout.len() == 1 { 0.0 } else { -10.0 };
                assert!(
                    badge.distance(middle) - BADGE - PIRATE_REACH >= room,
                    "the pirate at {anchor:?} covers the badge at {badge:?} of {layout:?}"
                );
            }
            assert!(middle.distance(c) + PIRATE_REACH <= SIZE * 0.87, "the pirate leaves its hex: {anchor:?}");
        }
    }
}
