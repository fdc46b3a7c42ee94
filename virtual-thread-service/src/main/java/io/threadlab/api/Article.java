package io.threadlab.api;

import java.time.Instant;
import java.util.List;

/** An article of the page, as every variant writes it in JSON: with its author and its comments, oldest first. */
public record Article(int id, String title, String body, Instant publishedAt, Author author, List<Comment> comments) {

    public record Author(int id, String name, String email) {
    }

    public record Comment(int id, String author, String body, Instant createdAt) {
    }
}
