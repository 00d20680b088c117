//! What a request gets when it cannot have its page, and the request's
//! parts every page checks the same way (the database, a run's id).

use super::html;
use axum::extract::Path as UrlPath;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// What a request gets when it cannot have its page.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub message: String,
}

impl Answer {
    pub fn bad_request(message: String) -> Answer {
        Answer {
            status: StatusCode::BAD_REQUEST,
            message,
        }
    }

    pub fn not_found(message: String) -> Answer {
        Answer {
            status: StatusCode::NOT_FOUND,
            message,
        }
    }

    /// The database could not be read (locked past the busy timeout,
    /// damaged, gone, written by a newer autotest). 409 Conflict: the
    /// request is sound but the database's state keeps it from an answer,
    /// and the same request may succeed later. Not a 5xx: the server
    /// itself works and goes on serving.
    pub fn database(error: &str) -> Answer {
        Answer {
            status: StatusCode::CONFLICT,
            message: format!("the results database cannot be read now: {error}"),
        }
    }
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        (
            self.status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{}\n", self.message),
        )
            .into_response()
    }
}

/// The run id in a path: a whole number, else 400.
pub fn run_id(UrlPath(id): UrlPath<String>) -> Result<i64, Answer> {
    id.parse().map_err(|_| {
        Answer::bad_request(format!(
            "a run is a whole number, not '{}'",
            html::printable(&id)
        ))
    })
}
