//! What a user of the generated models notices: nothing the service sends is lost or
//! rewritten, and drift (new enum values, new fields) does not break deserialization.

use orchestration_api::{
    Account, AccountStatus, EntityTransfer, TransferStatus, UpdateAccountRequest,
};
use serde_json::{Value, json};

fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(value: &Value) -> (T, Value) {
    let typed: T = serde_json::from_value(value.clone()).expect("deserializes");
    let back = serde_json::to_value(&typed).expect("serializes");
    (typed, back)
}

#[test]
fn a_timestamp_is_kept_as_written() {
    // "Timestamps are ISO 8601 strings": an offset, a precision, or none of either, as sent.
    for written in [
        "2024-05-10T10:12:40.120+02:00",
        "2024-05-10T10:12:40",
        "20240510T101240Z",
    ] {
        let input = json!({ "created_at": written });
        let (account, back) = round_trip::<Account>(&input);
        assert_eq!(
            back, input,
            "a DateTime<Utc> would have rewritten {written}"
        );
        assert_eq!(account.created_at.expect("present").as_str(), written);
    }
}

#[test]
fn a_timestamp_the_contract_refuses_still_deserializes() {
    // Lenient bindings: the validator, not the model, says that `yesterday` is no timestamp.
    let (account, back) = round_trip::<Account>(&json!({ "created_at": "yesterday" }));
    assert_eq!(account.created_at.expect("present").as_str(), "yesterday");
    assert_eq!(back, json!({ "created_at": "yesterday" }));
}

#[test]
fn an_unknown_enum_value_is_kept_not_rejected() {
    // The document does not show the status of a cancelled transfer.
    let input = json!({ "status": "CANCELLED" });
    let (transfer, back) = round_trip::<EntityTransfer>(&input);
    assert_eq!(
        transfer.status,
        Some(TransferStatus::Unknown("CANCELLED".into()))
    );
    assert!(!transfer.status.as_ref().unwrap().is_known());
    assert_eq!(back, input);
    let (account, _) = round_trip::<Account>(&json!({ "status": "CLOSED" }));
    assert_eq!(account.status, Some(AccountStatus::Closed));
}

#[test]
fn unknown_fields_survive_a_round_trip() {
    let input = json!({ "id": "acct_1", "risk_score": 7, "labels": { "tier": "gold" } });
    let (account, back) = round_trip::<Account>(&input);
    assert_eq!(account.additional_properties["risk_score"], json!(7));
    assert_eq!(back, input);
}

#[test]
fn absent_null_and_value_are_three_different_things() {
    let absent = round_trip::<Account>(&json!({})).0;
    let null = round_trip::<Account>(&json!({ "iban": null })).0;
    let value = round_trip::<Account>(&json!({ "iban": "GB33BUKB20201555555555" })).0;
    assert_eq!(absent.iban, None);
    assert_eq!(null.iban, Some(None));
    assert_eq!(value.iban, Some(Some("GB33BUKB20201555555555".into())));
    assert_eq!(
        serde_json::to_value(&null).unwrap(),
        json!({ "iban": null })
    );
    assert_eq!(serde_json::to_value(&absent).unwrap(), json!({}));
}

#[test]
fn amounts_keep_their_digits_and_their_json_shape() {
    let input = json!({ "amount": { "value": 1234567890.12, "currency": "USD" } });
    let (transfer, back) = round_trip::<EntityTransfer>(&input);
    let value = transfer.amount.unwrap().value.unwrap().value();
    assert_eq!(value.to_string(), "1234567890.12");
    assert_eq!(back, input);
    let whole = json!({ "amount": { "value": 100 } });
    assert_eq!(
        round_trip::<EntityTransfer>(&whole).1,
        whole,
        "an integer stays an integer"
    );
    let float = json!({ "amount": { "value": 100.0 } });
    assert_eq!(
        round_trip::<EntityTransfer>(&float).1,
        float,
        "a float stays a float"
    );
    // Decimal arithmetic is exact where f64 is not (0.1 + 0.2).
    let a: Value = json!({ "amount": { "value": 0.1 } });
    let b: Value = json!({ "amount": { "value": 0.2 } });
    let sum = round_trip::<EntityTransfer>(&a)
        .0
        .amount
        .unwrap()
        .value
        .unwrap()
        .value()
        + round_trip::<EntityTransfer>(&b)
            .0
            .amount
            .unwrap()
            .value
            .unwrap()
            .value();
    assert_eq!(sum.to_string(), "0.3");
}

#[test]
fn required_fields_are_required() {
    let err = serde_json::from_value::<UpdateAccountRequest>(json!({ "account_type": "SAVINGS" }))
        .unwrap_err();
    assert!(err.to_string().contains("account_id"), "{err}");
}
