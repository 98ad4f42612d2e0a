package dev.mnemo.spring.boot;

import dev.mnemo.springai.MnemoTenantResolver;
import java.util.Optional;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The user Spring Security authenticated on the calling thread ({@link SecurityContextHolder}): a
 * servlet application's signed-in user. An anonymous or unauthenticated caller is no user. The only
 * class here that names Spring Security, an optional dependency.
 */
final class SpringSecurityTenants {

    static final String SECURITY_CONTEXT_HOLDER = "org.springframework.security.core.context.SecurityContextHolder";

    private SpringSecurityTenants() {}

    /** Whether the caller on this thread is authenticated and holds {@code role} (as {@code ROLE_role} or as is). */
    static boolean hasRole(String role) {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null || !authentication.isAuthenticated()
                || authentication instanceof AnonymousAuthenticationToken) {
            return false;
        }
        String prefixed = role.startsWith("ROLE_") ? role : "ROLE_" + role;
        return authentication.getAuthorities().stream().map(GrantedAuthority::getAuthority)
                .anyMatch(a -> a.equals(role) || a.equals(prefixed));
    }

    static MnemoTenantResolver principal() {
        return request -> {
            Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
            if (authentication == null || !authentication.isAuthenticated()
                    || authentication instanceof AnonymousAuthenticationToken) {
                return Optional.empty();
            }
            return Optional.ofNullable(authentication.getName());
        };
    }
}
