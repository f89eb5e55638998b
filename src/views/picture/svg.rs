//! A small SVG writer: elements with escaped attributes and text, numbers rounded to what a
//! picture needs. Always well-formed: every element it opens it closes.

use std::fmt::Write;

/// An attribute value: text (escaped) or a number (one decimal).
#[derive(Debug, Clone)]
pub enum Value {
    Text(String),
    Number(f64),
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::Text(text.to_owned())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Value {
        Value::Text(text)
    }
}

impl From<f64> for Value {
    fn from(n: f64) -> Value {
        Value::Number(n)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Text(n.to_string())
    }
}

impl From<u8> for Value {
    fn from(n: u8) -> Value {
        Value::Text(n.to_string())
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Text(n.to_string())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Text(b.to_string())
    }
}

/// Escapes text for an attribute value or element content.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn number(n: f64) -> String {
    let rounded = (n * 10.0).round() / 10.0;
    if rounded == rounded.trunc() {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded:.1}")
    }
}

/// The document being written.
#[derive(Debug, Default)]
pub struct Svg {
    out: String,
    open: Vec<&'static str>,
}

pub type Attrs<'a> = &'a [(&'a str, Value)];

impl Svg {
    fn start(&mut self, tag: &str, attrs: Attrs<'_>) {
        self.out.push('<');
        self.out.push_str(tag);
        self.attributes(attrs);
    }

    fn attributes(&mut self, attrs: Attrs<'_>) {
        for (name, value) in attrs {
            let value = match value {
                Value::Text(text) => escape(text),
                Value::Number(n) => number(*n),
            };
            let _ = write!(self.out, " {name}=\"{value}\"");
        }
    }

    /// Opens an element; [`Svg::close`] ends it.
    pub fn open(&mut self, tag: &'static str, attrs: Attrs<'_>) {
        self.start(tag, attrs);
        self.out.push_str(">\n");
        self.open.push(tag);
    }

    /// Closes the innermost open element.
    pub fn close(&mut self) {
        if let Some(tag) = self.open.pop() {
            let _ = writeln!(self.out, "</{tag}>");
        }
    }

    /// An element without content.
    pub fn empty(&mut self, tag: &str, attrs: Attrs<'_>) {
        self.start(tag, attrs);
        self.out.push_str("/>\n");
    }

    /// A circle centred on `(cx, cy)`, filled with `fill` and outlined with `stroke` (none
    /// without), then `more` (its width, a class, data attributes).
    pub fn disc(&mut self, (cx, cy): (f64, f64), r: f64, fill: &str, stroke: Option<&str>, more: Attrs<'_>) {
        self.start("circle", &[("cx", cx.into()), ("cy", cy.into()), ("r", r.into()), ("fill", fill.into())]);
        if let Some(stroke) = stroke {
            self.attributes(&[("stroke", stroke.into())]);
        }
        self.attributes(more);
        self.out.push_str("/>\n");
    }

    /// An element holding text.
    pub fn text(&mut self, tag: &str, attrs: Attrs<'_>, text: &str) {
        self.start(tag, attrs);
        let _ = writeln!(self.out, ">{}</{tag}>", escape(text));
    }

    /// A list of points for `points=`.
    pub fn points(points: impl IntoIterator<Item = (f64, f64)>) -> Value {
        Value::Text(
            points.into_iter().map(|(x, y)| format!("{},{}", number(x), number(y))).collect::<Vec<_>>().join(" "),
        )
    }

    /// The finished document, every element closed.
    pub fn finish(mut self) -> String {
        while !self.open.is_empty() {
            self.close();
        }
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        let mut svg = Svg::default();
        svg.open("g", &[("data-name", "a\"b<c>&'".into())]);
        svg.text("text", &[], "x < y & \u{1}");
        let out = svg.finish();
        assert_eq!(out, "<g data-name=\"a&quot;b&lt;c&gt;&amp;&apos;\">\n<text>x &lt; y &amp; \u{FFFD}</text>\n</g>\n");
    }

    #[test]
    fn numbers_keep_one_decimal() {
        assert_eq!(number(3.0), "3");
        assert_eq!(number(-2.46), "-2.5");
        assert_eq!(number(0.04), "0");
    }
}
