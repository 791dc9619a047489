"""Forms of the site. Their values go to the same services the API calls, which check them again."""

from __future__ import annotations

from django import forms
from rest_framework import serializers

from accounts.serializers import RegisterInputSerializer
from decks.models import MAX_ENTRY_COUNT, Deck, Game


class SignUpForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
        help_text="Letters, digits and @ . + - _ only; at most 150 characters.",
    )
    # never stripped: the API keeps a password's spaces (RegisterInputSerializer: trim_whitespace=False)
    password = forms.CharField(
        strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password_again = forms.CharField(
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        label="Password (again)",
    )

    def clean_username(self) -> str:
        """The API's own check of a username (POST /api/auth/register/: its serializer field, Django's
        UnicodeUsernameValidator and the length): the site refuses exactly the names the API refuses."""
        field = RegisterInputSerializer().fields["username"]
        try:
            return field.run_validation(self.cleaned_data["username"])
        except serializers.ValidationError as error:
            raise forms.ValidationError(list(error.detail)) from None

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", "The two passwords differ.")
        return data


class DeckCreateForm(forms.Form):
    name = forms.CharField(max_length=Deck._meta.get_field("name").max_length)
    game = forms.ChoiceField(choices=Game.choices)
    nation = forms.ChoiceField(label="Nation (Battlecards) or army (The War)")
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    is_public = forms.BooleanField(required=False, label="Public")

    def __init__(self, *args, sides: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["nation"].choices = sides


class DeckImportForm(forms.Form):
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 14}), label="Deck list")
    name = forms.CharField(
        required=False,
        max_length=Deck._meta.get_field("name").max_length,
        help_text="Empty: the list's '# name:' line.",
    )
    game = forms.ChoiceField(
        choices=[("", "from the list (else Battlecards)"), *Game.choices], required=False
    )


def entries_from_post(post) -> tuple[dict[str, int], list[str]]:
    """The editor's `count:<code>` fields as {code: count} (0 drops the card), and the problems found."""
    entries: dict[str, int] = {}
    problems = []
    for key, raw in post.items():
        if not key.startswith("count:"):
            continue
        code = key.removeprefix("count:")
        try:
            count = int(raw or 0)
        except ValueError:
            problems.append(f"{code}: {raw!r} is not a number of copies.")
            continue
        if not 0 <= count <= MAX_ENTRY_COUNT:
            problems.append(f"{code}: between 0 and {MAX_ENTRY_COUNT} copies.")
        elif count:
            entries[code] = count
    return entries, problems
