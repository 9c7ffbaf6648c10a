//! The names of the contract's files. A component or operation id becomes a file name by
//! keeping letters, digits, `-`, `_` and `.`, so names that differ only elsewhere would share
//! a file (`Order Line` and `Order_Line`): the second would overwrite the first, and the
//! manifest would send both to one schema. Names that differ only in case share a file on the
//! case-insensitive file systems of macOS and Windows, where the generated crate is cloned too;
//! a name of a few hundred characters is longer than a file system allows; and Windows refuses
//! `CON`, `NUL`, `AUX` and the like whatever their extension.
//!
//! Each such name gets a file of its own: its kept characters (at most [`MAX_STEM`] bytes of
//! them) and a digest of the whole name, which depends on that name alone, so a file's name
//! stays the same whatever else the spec holds. Every other name is written as it reads.

use std::collections::{BTreeMap, HashMap};

use xxhash_rust::xxh3::xxh3_64;

use crate::ir::{Api, Webhook};

/// The longest a file name's own part may be, leaving room for the digest and the longest
/// suffix (`.response.default.json`) under the 255 bytes file systems allow.
const MAX_STEM: usize = 160;

/// The longest a media type's part of a file name may be ([`ContractFiles::in_media`]): with
/// [`MAX_STEM`] and the longest suffix, still under 255 bytes.
const MAX_MEDIA: usize = 40;

/// Stems Windows reserves for devices, whatever the extension.
const RESERVED: &[&str] = &[
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// Where each component's and each message's schema is written under `schemas/`.
#[derive(Debug, Clone, Default)]
pub struct ContractFiles {
    components: HashMap<String, String>,
    /// By folder (`operations`, `webhooks`), then operation id or webhook name.
    messages: HashMap<String, HashMap<String, String>>,
}

impl ContractFiles {
    /// The file names of `api`'s contract.
    pub fn of(api: &Api) -> ContractFiles {
        let components = stems(api.schemas.iter().map(|(name, _)| name.as_str()));
        let operations = stems(api.operations.iter().map(|op| op.id.as_str()));
        let keys: Vec<String> = api
            .webhooks
            .iter()
            .map(|hook| webhook_key(api, hook))
            .collect();
        let webhooks = stems(keys.iter().map(String::as_str));
        ContractFiles {
            components,
            messages: [
                ("operations".to_string(), operations),
                ("webhooks".to_string(), webhooks),
            ]
            .into_iter()
            .collect(),
        }
    }

    /// The file of the component schema `name`.
    pub fn component(&self, name: &str) -> String {
        format!("components/{}.json", stem_of(&self.components, name))
    }

    /// The file of the request body of the operation (`folder` `operations`) or webhook
    /// (`webhooks`) `id`.
    pub fn request(&self, folder: &str, id: &str) -> String {
        format!("{folder}/{}.request.json", self.message_stem(folder, id))
    }

    /// The file of a request body sent in another media type with a schema of its own
    /// (`form`, `multipart`).
    pub fn request_as(&self, folder: &str, id: &str, kind: &str) -> String {
        format!(
            "{folder}/{}.request.{kind}.json",
            self.message_stem(folder, id)
        )
    }

    /// The file of a response body, by status key (`201`, `2XX`, `default`).
    pub fn response(&self, folder: &str, id: &str, key: &str) -> String {
        format!(
            "{folder}/{}.response.{key}.json",
            self.message_stem(folder, id)
        )
    }

    /// The file of a body's schema in another JSON media type with a schema of its own,
    /// beside `main`, the file of the body's own schema: `….request.json` →
    /// `….request.merge-patch-json.json`. The media type's letters and digits name it (at
    /// most 40 bytes of them), `application/` left out.
    pub fn in_media(&self, main: &str, media: &str) -> String {
        let essence = crate::manifest::essence(media);
        let subtype = essence.strip_prefix("application/").unwrap_or(&essence);
        let mut slug = String::new();
        for c in subtype.chars() {
            if c.is_ascii_alphanumeric() {
                slug.push(c.to_ascii_lowercase());
            } else if !slug.ends_with('-') {
                slug.push('-');
            }
        }
        let slug = slug.trim_matches('-');
        let slug = &slug[..slug.len().min(MAX_MEDIA)];
        let stem = main.strip_suffix(".json").unwrap_or(main);
        format!("{stem}.{slug}.json")
    }

    fn message_stem(&self, folder: &str, id: &str) -> String {
        match self.messages.get(folder) {
            Some(stems) => stem_of(stems, id),
            None => stem(id, false),
        }
    }
}

/// The stem `stems` holds for `name`; a name the map was not made with (a caller's own) is
/// named as if it stood alone.
fn stem_of(stems: &HashMap<String, String>, name: &str) -> String {
    stems
        .get(name)
        .cloned()
        .unwrap_or_else(|| stem(name, false))
}

/// The file stem of each of `names`, distinct even where the file system ignores case.
/// What a webhook's contract files are named after: its name, with its method when the name
/// has several (`progress.put`, `progress.post`), so that each method keeps its own messages.
pub fn webhook_key(api: &Api, hook: &Webhook) -> String {
    let methods = api
        .webhooks
        .iter()
        .filter(|other| other.name == hook.name)
        .count();
    if methods > 1 {
        format!("{}.{}", hook.name, hook.operation.method.key())
    } else {
        hook.name.clone()
    }
}

fn stems<'n>(names: impl Iterator<Item = &'n str>) -> HashMap<String, String> {
    let names: Vec<&str> = names.collect();
    let mut sharing: BTreeMap<String, usize> = BTreeMap::new();
    for name in &names {
        *sharing.entry(kept(name).to_lowercase()).or_default() += 1;
    }
    names
        .into_iter()
        .map(|name| {
            let shared = sharing[&kept(name).to_lowercase()] > 1;
            (name.to_string(), stem(name, shared))
        })
        .collect()
}

/// The stem of `name`: its kept characters, with a digest of the name when they are shared
/// with another name, cut short or reserved.
fn stem(name: &str, shared: bool) -> String {
    let kept = kept(name);
    let device = kept.split('.').next().unwrap_or_default().to_lowercase();
    let reserved = RESERVED.contains(&device.as_str()) || kept.is_empty();
    if !(shared || reserved || kept.len() > MAX_STEM) {
        return kept;
    }
    let mut end = kept.len().min(MAX_STEM);
    while !kept.is_char_boundary(end) {
        end -= 1;
    }
    // Truncated to 32 bits: eight hex digits in a file name, and a chance of a clash between
    // two such names of the same spec of about one in four billion.
    let digest = xxh3_64(name.as_bytes()) as u32;
    format!("{}-{digest:08x}", &kept[..end])
}

/// `name` with every character but ASCII letters, digits, `-`, `_` and `.` as `_`.
fn kept(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(names: &[&str]) -> HashMap<String, String> {
        stems(names.iter().copied())
    }

    #[test]
    fn a_name_alone_is_written_as_it_reads() {
        let stems = of(&["Account", "createAccount", "v1.Thing", "order-line"]);
        for name in ["Account", "createAccount", "v1.Thing", "order-line"] {
            assert_eq!(stems[name], name);
        }
        assert_eq!(of(&["Order Line"])["Order Line"], "Order_Line");
    }

    #[test]
    fn names_that_would_share_a_file_each_get_their_own() {
        let stems = of(&["Order Line", "Order_Line", "order_line", "Other"]);
        let mut files: Vec<String> = stems.values().map(|s| s.to_lowercase()).collect();
        files.sort();
        files.dedup();
        assert_eq!(files.len(), 4, "{stems:?}");
        assert_eq!(stems["Other"], "Other");
        assert!(stems["Order_Line"].starts_with("Order_Line-"), "{stems:?}");
        // A name's file depends on that name alone, not on the order the spec lists them in.
        let reversed = of(&["Other", "order_line", "Order_Line", "Order Line"]);
        assert_eq!(stems, reversed);
    }

    #[test]
    fn a_long_name_is_cut_and_keeps_its_own_file() {
        let long_a = format!("{}a", "x".repeat(400));
        let long_b = format!("{}b", "x".repeat(400));
        let stems = of(&[&long_a, &long_b]);
        assert!(
            stems[&long_a].len() <= MAX_STEM + 9,
            "{}",
            stems[&long_a].len()
        );
        assert_ne!(stems[&long_a], stems[&long_b]);
        // Multi-byte characters are kept as `_`, so a cut never splits one.
        assert!(
            of(&["é".repeat(300).as_str()])
                .values()
                .all(|s| s.is_ascii())
        );
    }

    #[test]
    fn names_windows_reserves_are_not_files_of_their_own_name() {
        for name in ["Con", "NUL", "aux.json", "Com1"] {
            let stem = &of(&[name])[name];
            assert!(stem.len() > name.len(), "{name} -> {stem}");
        }
        assert_eq!(of(&["Console"])["Console"], "Console");
        assert!(!of(&[""])[""].is_empty());
    }
}
