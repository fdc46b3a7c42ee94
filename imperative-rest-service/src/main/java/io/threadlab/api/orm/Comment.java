package io.threadlab.api.orm;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

import java.time.Instant;

/** A row of lab-database's {@code comments}: its article is the owning side of {@link Article#getComments()}. */
@Entity
@Table(name = "comments")
public class Comment {

    @Id
    private Integer id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "article_id")
    private Article article;

    @Column(name = "author_name")
    private String authorName;

    private String body;

    @Column(name = "created_at")
    private Instant createdAt;

    protected Comment() {
        // for Hibernate
    }

    public Integer getId() {
        return id;
    }

    public Article getArticle() {
        return article;
    }

    public String getAuthorName() {
        return authorName;
    }

    public String getBody() {
        return body;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }
}
