package io.threadlab.api.orm;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A row of lab-database's {@code authors}, as Hibernate maps it. Its id is the table's own integer, never generated:
 * the lab's data set fixes every id, and the services only read.
 * <p>
 * The entities are plain JPA, read through Panache repositories ({@code ArticleRepository}) rather than extending a
 * Panache entity class: Hibernate ORM's and Hibernate Reactive's Panache entities have different base classes, and
 * the mapping is the same whichever reads it, so these files are the same in every variant (VariantParityTest).
 */
@Entity
@Table(name = "authors")
public class Author {

    @Id
    private Integer id;

    private String name;

    private String email;

    protected Author() {
        // for Hibernate
    }

    public Integer getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public String getEmail() {
        return email;
    }
}
