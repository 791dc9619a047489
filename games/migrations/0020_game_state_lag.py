"""Game.state_lag: how many log entries lie after the stored state. Every state stored so far is current
(written at every change): 0."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0019_game_analysis")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="state_lag",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
