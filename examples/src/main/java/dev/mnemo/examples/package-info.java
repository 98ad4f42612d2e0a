/** Runnable examples of Mnemo (issue #7). */
package dev.mnemo.examples;
