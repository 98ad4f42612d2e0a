package dev.mnemo.spring.boot;

import dev.mnemo.spring.boot.MnemoProperties.Tenancy;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code mnemo.tenancy} binds to one value. Bound as the property is bound, so
 * {@code per-user}, {@code PER_USER} and {@code perUser} all match {@link Tenancy#PER_USER}.
 */
abstract class TenancyCondition extends SpringBootCondition {

    private final Tenancy tenancy;

    TenancyCondition(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Tenancy given = Binder.get(context.getEnvironment()).bind(MnemoProperties.PREFIX + ".tenancy", Tenancy.class)
                .orElse(null);
        return given == tenancy ? ConditionOutcome.match("mnemo.tenancy is " + given)
                : ConditionOutcome.noMatch("mnemo.tenancy is " + (given == null ? "unset" : given));
    }

    /** {@code mnemo.tenancy=shared}. */
    static final class Shared extends TenancyCondition {
        Shared() {
            super(Tenancy.SHARED);
        }
    }

    /** {@code mnemo.tenancy=per-user}. */
    static final class PerUser extends TenancyCondition {
        PerUser() {
            super(Tenancy.PER_USER);
        }
    }
}
