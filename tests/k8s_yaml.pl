#!/usr/bin/perl
# The manifests' YAML, flattened for tests/k8s.sh: one line per scalar,
#   DOC.path.to.key = value       (DOC: 0-based document; list items by index)
# It reads the block style the manifests in bench/match/shards/ are written
# in (maps, lists, "- key: value" items, plain and double-quoted scalars,
# comments, --- between documents) and refuses anything else with the line.
use strict;
use warnings;

my @lines;   # [indent, text, line number] of the current document
my $doc = 0;

sub scalar_of {
    my ($v, $n) = @_;
    return $1 if $v =~ /^"([^"\\]*)"$/;
    die "line $n: flow style or a quote this reader does not take: $v\n" if $v =~ /^[\[\{'"&*!|>]/;
    return $v;
}

# Parses lines[$i..] at indent $ind into flat keys under $prefix; returns the next index.
sub block {
    my ($i, $ind, $prefix, $out) = @_;
    my $item = 0;
    while ($i < @lines) {
        my ($in, $t, $n) = @{$lines[$i]};
        last if $in < $ind;
        die "line $n: indented more than its block\n" if $in > $ind;
        if ($t =~ /^- ?(.*)$/) {
            my $rest = $1;
            my $key = "$prefix$item";
            $item++;
            if ($rest eq '') {
                $i = block($i + 1, $lines[$i + 1][0], "$key.", $out);
            } elsif ($rest =~ /^([A-Za-z_][\w.\/-]*):(?: (.*))?$/) {
                # "- key: value": a map item whose first key sits after the dash
                $lines[$i] = [$in + 2, $rest, $n];
                $i = block($i, $in + 2, "$key.", $out);
            } else {
                push @$out, "$key = " . scalar_of($rest, $n);
                $i++;
            }
        } elsif ($t =~ /^([A-Za-z_][\w.\/-]*):(?: +(.*))?$/) {
            my ($k, $v) = ($1, $2);
            if (defined $v && $v ne '') {
                push @$out, "$prefix$k = " . scalar_of($v, $n);
                $i++;
            } else {
                die "line $n: '$k:' has nothing under it\n" if $i + 1 >= @lines || $lines[$i + 1][0] < $in;
                my $next = $lines[$i + 1][0];
                # a list may sit at the key's own indent
                $next = $in if $next == $in && $lines[$i + 1][1] =~ /^-/;
                die "line $n: '$k:' has nothing under it\n" if $next == $in && $lines[$i + 1][1] !~ /^-/;
                $i = block($i + 1, $next, "$prefix$k.", $out);
            }
        } else {
            die "line $n: not a line this reader takes: $t\n";
        }
    }
    return $i;
}

sub flush {
    return unless @lines;
    my @out;
    my $i = block(0, $lines[0][0], "$doc.", \@out);
    die "line $lines[$i][2]: left over\n" if $i < @lines;
    print "$_\n" for @out;
    @lines = ();
    $doc++;
}

my $file = shift // die "usage: $0 FILE.yaml\n";
open my $fh, '<', $file or die "$file: $!\n";
while (my $l = <$fh>) {
    chomp $l;
    my $n = $.;
    if ($l =~ /^---\s*$/) { flush(); next; }
    next if $l =~ /^\s*(#.*)?$/;
    $l =~ s/\s+#.*$//;
    $l =~ /^( *)(.*?)\s*$/;
    push @lines, [length $1, $2, $n];
}
close $fh;
flush();
