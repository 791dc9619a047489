from django.db import migrations, models


def draws_were_recorded_unfinished(apps, schema_editor):
    """Games the engine finished without a winner (equal points) were stored as "unfinished": they are draws.
    Games stopped before the engine finished them (expired, cancelled) keep "unfinished"."""
    Game = apps.get_model("games", "Game")
    Game.objects.filter(end_reason="unfinished", winner="", state__status="finished").update(end_reason="draw")


def draws_back_to_unfinished(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(end_reason="draw").update(end_reason="unfinished")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_game_type'),
    ]

    operations = [
        migrations.AlterField(
            model_name='game',
            name='end_reason',
            field=models.CharField(blank=True, choices=[('victory', 'Victory by the rules'), ('draw', 'Draw by the rules'), ('resignation', 'Resignation'), ('unfinished', 'Stopped without a winner')], default='', max_length=16),
        ),
        migrations.RunPython(draws_were_recorded_unfinished, draws_back_to_unfinished),
    ]
