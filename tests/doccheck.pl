#!/usr/bin/perl
# make doccheck: runs the commands that README.md and docs/*.md show, as written.
#
#   perl tests/doccheck.pl [-v] [FILE.md ...]      (default: README.md docs/*.md)
#
# What it takes from a page (code blocks are the lines indented by 4 spaces):
# - command lines: lines starting with `build/`, `make`, `printf`, `cp`, `sh`,
#   `(`, or anything after `$ `; a trailing `\` continues a line; a ` # comment`
#   after two blanks is dropped. In a block that has `$ ` lines, the lines after
#   a command up to the next one are its expected output: each one (but `...`
#   lines) must come out, in that order, numbers aside.
# - sessions: blocks of `> ` lines (sent to a fresh build/morelli, waiting for the
#   `bestmove` of every `go`); every other line of the block but `info` lines and
#   `...` must come out exactly, in that order, among the replies to the command
#   just above it.
# The commands of a page run in order in a scratch directory of their own
# (build/doccheck/<page>/, with the repository's folders linked in), so a page
# that uses a file before the command that makes it fails. A command fails when
# its exit status is not 0 or it prints `info string error`. (make commands get
# 12 times as long.) Paths under /tmp/
# are moved into the scratch directory (the machine may be shared). Commands still running
# after 10 seconds (DOCCHECK_LIMIT) are stopped and counted as long (no error so far). Skipped,
# with the reason: placeholders (`<...>`, `...`), `git clone`, `cd`, `apt-get`,
# install, image and ARCH= builds, the make targets CI runs anyway or that take minutes (test, check, pgo, format,
# sanitize, bench, fuzz, doccheck, clean), the clang/wasm ones (web, test-web, test-clang, tsan:
# they may install a toolchain) and servers (web-serve).
# Also: no page may point outside the repository (RULES.md, /work/..., ../shared),
# and every file of the repository a page names (engine/..., tests/..., ...) exists.
use strict;
use warnings;
use IPC::Open2;
use IO::Select;
use Cwd qw(getcwd);
use File::Path qw(make_path remove_tree);

my $verbose = 0;
if (@ARGV && $ARGV[0] eq '-v') { $verbose = 1; shift @ARGV; }
my @pages = @ARGV ? @ARGV : ('README.md', sort glob('docs/*.md'));
my $top = getcwd();
my $limit = $ENV{DOCCHECK_LIMIT} || 10;
my ($ran, $long, $skipped, $failed) = (0, 0, 0, 0);

sub fail { my ($where, $msg) = @_; print "FAIL $where: $msg\n"; $failed++; }

# A number in a figure: 12, -3, +0.5, 1,234, 99.3%, +inf
my $NUM = qr/[-+]?(?:\d[\d,]*(?:\.\d+)?|inf)/;
sub skeleton {   # a line with every figure replaced, blanks squeezed
    my ($l) = @_;
    $l =~ s/\b(?:H[01] accepted|no decision)\b/#/g;   # an SPRT's verdict is a figure too
    $l =~ s/$NUM/#/g;
    $l =~ s/\s+/ /g;
    $l =~ s/^ | $//g;
    return $l;
}

sub blocks {   # the code blocks of a page: [first line number, lines]
    my ($file) = @_;
    open my $fh, '<', $file or die "$file: $!";
    my @lines = <$fh>;
    close $fh;
    my @out; my $cur; my $prev_blank = 1; my $fence = 0;
    for my $i (0 .. $#lines) {
        my $l = $lines[$i];
        chomp $l;
        if ($l =~ /^```/) { $fence = !$fence; $cur = undef; next; }
        next if $fence;
        if ($l =~ /^    (.*)$/ && ($cur || $prev_blank)) {
            if (!$cur) { $cur = [$i + 1, []]; push @out, $cur; }
            push @{$cur->[1]}, $1;
        } elsif ($l =~ /^\s*$/ && $cur) {
            push @{$cur->[1]}, '';
        } else {
            $cur = undef;
        }
        $prev_blank = $l =~ /^\s*$/;
    }
    for my $b (@out) { pop @{$b->[1]} while @{$b->[1]} && $b->[1][-1] eq ''; }
    return @out;
}

sub skip_reason {
    my ($c) = @_;
    return 'placeholder' if $c =~ /<[a-z][^>]*>|\.\.\./;
    return 'fetches or installs' if $c =~ /^(git clone|apt-get|sudo)\b/;
    return 'changes directory' if $c =~ /^cd\b/;
    return 'installs, or builds for another machine'
        if $c =~ /^make\s+(install|uninstall|image|ARCH=|DIST_ARCH=)/;
    return 'needs make fuzz (clang)' if $c =~ m{build/fuzz/};
    return 'a server, runs until Ctrl-C' if $c =~ /^make\s+web-serve\b/;
    return 'needs clang (may install a toolchain)'
        if $c =~ /^make\b[^&|;]*\s(web|test-web|test-clang|tsan)\b/;
    return 'needs cutegames and its sources' if $c =~ /\bcmake\b/;
    return "make target run by CI or minutes long"
        if $c =~ /^make\s+(test|check|pgo|format|sanitize|bench|fuzz|doccheck|clean)\b/;
    return undef;
}

sub run_cmd {   # runs one command in $dir; returns (status, output, timed out)
    my ($dir, $cmd, $secs) = @_;
    my $pid = open(my $fh, '-|') // die "fork: $!";
    if (!$pid) {
        chdir $dir or die;
        open STDERR, '>&', \*STDOUT;
        open STDIN, '<', '/dev/null';
        setpgrp(0, 0);
        exec 'bash', '-c', $cmd;
        exit 127;
    }
    my $out = ''; my $timed = 0;
    my $sel = IO::Select->new($fh);
    my $end = time + $secs;
    while (1) {
        my $left = $end - time;
        if ($left <= 0) { $timed = 1; kill 'TERM', -$pid; sleep 1; kill 'KILL', -$pid; last; }
        next unless $sel->can_read($left);
        my $n = sysread($fh, my $buf, 65536);
        last if !$n;
        $out .= $buf;
    }
    close $fh;
    my $st = $timed ? 0 : $? >> 8;
    return ($st, $out, $timed);
}

sub check_output {   # expected lines in order among the actual ones, figures aside
    my ($where, $expected, $out) = @_;
    my @act = map { skeleton($_) } split /\n/, $out;
    my $k = 0;
    for my $e (@$expected) {
        next if $e =~ /^\s*$/ || $e =~ /\.\.\./;
        my $s = skeleton($e);
        $k++ while $k < @act && $act[$k] ne $s;
        if ($k >= @act) {
            fail($where, "expected output line not found (in order): $e\n    the output:\n    "
                 . join("\n    ", split /\n/, $out));
            return;
        }
        $k++;
    }
}

sub run_commands {
    my ($page, $dir, $start, $lines) = @_;
    my @cmds;   # [line, command, expected output lines]
    my $dollar = grep { /^\$ / } @$lines;
    my $i = 0;
    while ($i < @$lines) {
        my $l = $lines->[$i]; my $ln = $start + $i; $i++;
        $l =~ s/^\s+//;
        my $c;
        if ($dollar) { next unless $l =~ /^\$ (.*)$/; $c = $1; }
        else {
            next unless $l =~ /^(build\/|make\b|nice\b|printf\b|cp\b|sh\b|\(|git\b|cd\b|apt-get\b)/;
            $c = $l;
        }
        while ($c =~ /\\$/ && $i < @$lines) { $c =~ s/\\$//; $c .= ' ' . $lines->[$i]; $i++; }
        $c =~ s/\s{2,}#.*$//;
        $c =~ s/\s+/ /g; $c =~ s/^ | $//g;
        my @exp;
        if ($dollar) { while ($i < @$lines && $lines->[$i] !~ /^\$ /) { push @exp, $lines->[$i]; $i++; } }
        push @cmds, [$ln, $c, \@exp];
    }
    for my $x (@cmds) {
        my ($ln, $c, $exp) = @$x;
        my $where = "$page:$ln";
        if (my $why = skip_reason($c)) { $skipped++; print "skip $where: $c  ($why)\n" if $verbose; next; }
        # /tmp is shared with the machine's other users: each page gets its own.
        my $run = $c;
        $run =~ s{(?<![\w.])/tmp/}{$dir/tmp/}g;
        make_path("$dir/tmp");
        my $t0 = time;
        # make runs at the top (its file lists do not follow the scratch links)
        # (and may take longer: a build with -flto)
        my $make = $c =~ /^make\b/;
        my $max = $make ? 12 * $limit : $limit;
        my ($st, $out, $timed) = run_cmd($make ? $top : $dir, $run, $max);
        my $secs = time - $t0;
        if ($timed) { $long++; print "long $where: $c  (stopped after $max s, no error so far)\n"; }
        else { $ran++; print "ok   $where: $c  (${secs} s)\n" if $verbose; }
        if ($st != 0) {
            my @t = split /\n/, $out; my $tail = join("\n    ", @t[($#t > 3 ? $#t - 3 : 0) .. $#t]);
            fail($where, "exit status $st: $c\n    $tail");
            next;
        }
        if ($out =~ /^(info string error:.*)$/m) { fail($where, "$c printed: $1"); next; }
        check_output($where, $exp, $out) if @$exp && !$timed;
    }
}

sub run_session {
    my ($page, $start, $lines) = @_;
    my $where = "$page:$start";
    my $pid = open2(my $from, my $to, "$top/build/morelli") or die;
    my $sel = IO::Select->new($from);
    my $buf = '';
    my $readline = sub {   # one line of the engine's, or undef after $limit s
        my $end = time + $limit;
        while ($buf !~ /\n/) {
            my $left = $end - time;
            return undef if $left <= 0 || !$sel->can_read($left);
            my $n = sysread($from, my $b, 65536);
            return undef if !$n;
            $buf .= $b;
        }
        $buf =~ s/^(.*)\n//; return $1;
    };
    my @steps;   # [command, expected lines]
    for my $l (@$lines) {
        if ($l =~ /^> (.*)$/) { push @steps, [$1, []]; }
        elsif (@steps) { push @{$steps[-1][1]}, $l; }
    }
    $ran++;
    for my $s (@steps) {
        my ($cmd, $exp) = @$s;
        print $to "$cmd\n";
        my $go = $cmd =~ /^go\b/ && $cmd !~ /\binfinite\b/;
        print $to "isready\n" unless $go || $cmd eq 'isready';
        my @got;
        while (defined(my $l = $readline->())) {
            push @got, $l;
            last if $go && $l =~ /^bestmove/;
            last if !$go && $l eq 'readyok';
        }
        pop @got if !$go && $cmd ne 'isready' && @got && $got[-1] eq 'readyok';
        my @act = grep { !/^info (?!string)/ } @got;
        my $k = 0;
        for my $e (@$exp) {
            next if $e =~ /^\s*$/ || $e =~ /\.\.\./ || $e =~ /^info (?!string)/;
            $k++ while $k < @act && $act[$k] ne $e;
            if ($k >= @act) {
                fail($where, "after '> $cmd' expected '$e', got: " . join(' | ', @act));
                last;
            }
            $k++;
        }
    }
    close $to; waitpid $pid, 0;
}

die "doccheck: build/morelli is missing (make first)\n" unless -x "$top/build/morelli";
for my $page (@pages) {
    open my $fh, '<', $page or die "$page: $!";
    my $n = 0;
    while (my $l = <$fh>) {
        $n++;
        fail("$page:$n", "points outside the repository: $1")
            if $l =~ /(RULES\.md|\/work\/\w+|\.\.\/shared)/;
        # the repository's files it names must exist (wildcards allowed)
        while ($l =~ m{(?<![\w/.-])((?:engine|bench|tests|protocol|docs)/[A-Za-z0-9_./*-]+)}g) {
            (my $path = $1) =~ s/[.,:;]+$//;
            next if $path =~ m{^tests/data/[^/]*<} || $path =~ m{/$};
            fail("$page:$n", "names $path, which is not in the repository")
                unless my @hit = glob("$top/$path");
        }
    }
    close $fh;
    (my $name = $page) =~ s{.*/}{}; $name =~ s/\.md$//;
    my $dir = "$top/build/doccheck/$name";
    remove_tree($dir); make_path($dir);
    for my $d (qw(bench docs engine protocol tests Makefile README.md)) {
        symlink("$top/$d", "$dir/$d") if -e "$top/$d";
    }
    symlink("$top/build", "$dir/build");
    for my $b (blocks($page)) {
        my ($start, $lines) = @$b;
        if (grep { /^> / } @$lines) { run_session($page, $start, $lines); }
        else { run_commands($page, $dir, $start, $lines); }
    }
}

# build/morelli at a terminal says what it is; on a pipe, nothing of its own.
my $pipe = `echo quit | "$top/build/morelli" 2>&1`;
fail('build/morelli', "prints '$pipe' on a pipe") if $pipe ne '';
if (system('command -v script >/dev/null 2>&1') == 0) {
    my $tty = `echo quit | script -qec "$top/build/morelli" /dev/null 2>&1`;
    fail('build/morelli', "says nothing at a terminal") unless $tty =~ /type help/;
}

print "doccheck: $ran ran, $long long (stopped, no error so far), $skipped skipped, $failed failed\n";
exit($failed ? 1 : 0);
