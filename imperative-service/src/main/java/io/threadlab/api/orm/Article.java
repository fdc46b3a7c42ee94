package io.threadlab.api.orm;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.List;

/**
 * A row of lab-database's {@code articles}, with its author and its comments as associations. Both are lazy, as a team
 * maps them so that listing articles does not read every author and comment: the page says what it needs in its
 * queries ({@link PageQueries}). Accessed through getters, which load a lazy association when touched in an open
 * session (the mistakes service's per-row loading).
 */
@Entity
@Table(name = "articles")
public class Article {

    @Id
    private Integer id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "author_id")
    private Author author;

    private String title;

    private String body;

    @Column(name = "published_at")
    private Instant publishedAt;

    @OneToMany(mappedBy = "article")
    @OrderBy("id")
    private List<Comment> comments;

    protected Article() {
        // for Hibernate
    }

    public Integer getId() {
        return id;
    }

    public Author getAuthor() {
        return author;
    }

    public String getTitle() {
        return title;
    }

    public String getBody() {
        return body;
    }

    public Instant getPublishedAt() {
        return publishedAt;
    }

    public List<Comment> getComments() {
        return comments;
    }
}
